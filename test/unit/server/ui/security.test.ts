// The UI's front door: the one-time token, the session cookie, the hosts it answers to, and
// what counts as a same-origin change.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { allowedHosts, checkedHost, LINK_LIFETIME_MS, readCookie, sameOrigin, Sessions } from '../../../../src/server/ui/security.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('Sessions', () => {
  it('gives one session for the start token, once', () => {
    const sessions = new Sessions(4100);
    const token = sessions.startToken;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(sessions.redeem(`${token}x`)).toBeUndefined();
    const id = sessions.redeem(token)!;
    expect(id).toBeDefined();
    expect(sessions.redeem(token)).toBeUndefined();
    expect(sessions.startToken).toBe('');
    const cookie = sessions.cookie(id);
    expect(cookie).toBe(`llmobs_ui_4100=${id}; HttpOnly; SameSite=Strict; Path=/`);
    expect(sessions.has(request({ cookie: `other=1; llmobs_ui_4100=${id}` }))).toBe(true);
    expect(sessions.has(request({ cookie: `llmobs_ui_4101=${id}` }))).toBe(false);
    expect(sessions.has(request({ cookie: `llmobs_ui_4100=${id.slice(1)}` }))).toBe(false);
    expect(sessions.has(request({}))).toBe(false);
  });

  it('issues links that work once, each, until they expire; the start link stays as it was', () => {
    let now = 1_000_000;
    const sessions = new Sessions(4100, () => now);
    const start = sessions.startToken;
    const first = sessions.issue();
    const second = sessions.issue();
    expect(new Set([start, first, second]).size).toBe(3);
    expect(sessions.redeem(first)).toBeDefined();
    expect(sessions.redeem(first)).toBeUndefined();
    expect(sessions.startToken).toBe(start);
    now += LINK_LIFETIME_MS;
    expect(sessions.redeem(second)).toBeUndefined();
    // The start link has no time limit.
    expect(sessions.redeem(start)).toBeDefined();
    // Links asked for and left unused are bounded: the oldest goes first.
    const many = Array.from({ length: 25 }, () => sessions.issue());
    expect(sessions.redeem(many[0]!)).toBeUndefined();
    expect(sessions.redeem(many[24]!)).toBeDefined();
  });

  it('makes a different token for each server', () => {
    expect(new Sessions(1).startToken).not.toBe(new Sessions(1).startToken);
  });
});

describe('readCookie', () => {
  it('finds a cookie by its exact name', () => {
    expect(readCookie('a=1; llmobs_ui_1=xyz; b=2', 'llmobs_ui_1')).toBe('xyz');
    expect(readCookie('xllmobs_ui_1=no', 'llmobs_ui_1')).toBeUndefined();
    expect(readCookie(undefined, 'a')).toBeUndefined();
  });
});

describe('hosts', () => {
  it('answers to the loopback names and the listening address, with the port', () => {
    const allowed = allowedHosts('127.0.0.1', 4100);
    for (const host of ['127.0.0.1:4100', 'localhost:4100', 'LOCALHOST:4100', '[::1]:4100']) expect(checkedHost(request({ host }), allowed), host).toBe(host.toLowerCase());
    for (const host of ['127.0.0.1:4101', 'evil.example:4100', '127.0.0.1.nip.io:4100', 'localhost', '']) expect(checkedHost(request({ host }), allowed), host).toBeUndefined();
    expect(checkedHost(request({}), allowed)).toBeUndefined();
    expect(allowedHosts('::1', 80).has('[::1]:80')).toBe(true);
    expect(allowedHosts('192.168.1.20', 80).has('192.168.1.20:80')).toBe(true);
  });
});

describe('sameOrigin', () => {
  it('needs the Origin of this host, and same-origin when the browser says where from', () => {
    expect(sameOrigin(request({ origin: 'http://127.0.0.1:4100' }), '127.0.0.1:4100')).toBe(true);
    expect(sameOrigin(request({ origin: 'http://127.0.0.1:4100', 'sec-fetch-site': 'same-origin' }), '127.0.0.1:4100')).toBe(true);
    expect(sameOrigin(request({ origin: 'http://127.0.0.1:4100', 'sec-fetch-site': 'same-site' }), '127.0.0.1:4100')).toBe(false);
    expect(sameOrigin(request({ origin: 'http://localhost:4100' }), '127.0.0.1:4100')).toBe(false);
    expect(sameOrigin(request({ origin: 'null' }), '127.0.0.1:4100')).toBe(false);
    expect(sameOrigin(request({}), '127.0.0.1:4100')).toBe(false);
  });
});
