import type { CreateChatPromptBodyWithPlaceholders } from '@langfuse/client';
import { describe, expect, it } from 'vitest';
import {
  PromptUsageError,
  buildCreatePromptBody,
  type ChatItem,
  type CreatePromptBody,
} from '../../../../src/core/prompts/index.js';

describe('buildCreatePromptBody', () => {
  it('builds a text body with the defaults the server would apply spelled out', () => {
    expect(buildCreatePromptBody({ name: ' folder/greet ', content: { type: 'text', prompt: 'Hi {{name}}' } })).toStrictEqual({
      name: 'folder/greet',
      type: 'text',
      prompt: 'Hi {{name}}',
      labels: [],
      config: {},
    });
  });

  it('sends chat messages as {role, content} and placeholders as {type, name}, nothing else', () => {
    const messages = [
      { role: 'system', content: 'Be {{tone}}', type: 'chatmessage' },
      { type: 'placeholder', name: 'history' },
    ] as unknown as ChatItem[];
    const body = buildCreatePromptBody({
      name: 'support',
      content: { type: 'chat', prompt: messages },
      labels: ['staging', 'production', 'staging'],
      tags: ['team-a', 'team-a', 'beta'],
      config: { model: 'gpt-4o', temperature: 0 },
      commitMessage: 'Tone as a variable',
    });
    expect(body).toStrictEqual({
      name: 'support',
      type: 'chat',
      prompt: [
        { role: 'system', content: 'Be {{tone}}' },
        { type: 'placeholder', name: 'history' },
      ],
      labels: ['staging', 'production'],
      tags: ['team-a', 'beta'],
      config: { model: 'gpt-4o', temperature: 0 },
      commitMessage: 'Tone as a variable',
    });
    expect(Object.keys(body)).toEqual(['name', 'type', 'prompt', 'labels', 'tags', 'config', 'commitMessage']);
  });

  it('omits tags when none are given, so the server keeps the previous version’s tags', () => {
    const body = buildCreatePromptBody({ name: 'p', content: { type: 'text', prompt: '' } });
    expect('tags' in body).toBe(false);
  });

  it('sends an empty tag list as given: it clears the tags of every version', () => {
    expect(buildCreatePromptBody({ name: 'p', content: { type: 'text', prompt: '' }, tags: [] }).tags).toEqual([]);
  });

  it('keeps a config that is not an object, and null', () => {
    expect(buildCreatePromptBody({ name: 'p', content: { type: 'text', prompt: '' }, config: null }).config).toBeNull();
    expect(buildCreatePromptBody({ name: 'p', content: { type: 'text', prompt: '' }, config: [1, 'a'] }).config).toEqual([1, 'a']);
  });

  it.each([
    [{ name: 'a|b' }, /Invalid prompt name "a\|b"/],
    [{ name: 'new' }, /reserved/],
    [{ labels: ['Production'] }, /Invalid label "Production"/],
    [{ labels: ['latest'] }, /'latest' cannot be set by hand/],
    [{ commitMessage: 'x'.repeat(501) }, /limit is 500/],
    [{ config: { temperature: Number.NaN } }, /config is not plain JSON: config.temperature is NaN/],
    [{ config: { stop: [1, Infinity] } }, /config.stop\[1\] is Infinity/],
    [{ config: { f: () => 1 } }, /config.f is a function/],
  ])('refuses %j', (override, reason) => {
    const input = { name: 'p', content: { type: 'text' as const, prompt: 'x' }, ...override };
    expect(() => buildCreatePromptBody(input)).toThrow(PromptUsageError);
    expect(() => buildCreatePromptBody(input)).toThrow(reason);
  });

  it('refuses invalid chat messages, naming the index', () => {
    const prompt = [{ role: 'user', content: 'x' }, { name: 'history' }] as unknown as ChatItem[];
    expect(() => buildCreatePromptBody({ name: 'p', content: { type: 'chat', prompt } })).toThrow(/Chat message \[1\]/);
  });

  it('refuses a variable that shares its name with a placeholder, as the server does', () => {
    const prompt: ChatItem[] = [
      { role: 'system', content: 'Hello {{userName}}' },
      { type: 'placeholder', name: 'userName' },
    ];
    expect(() => buildCreatePromptBody({ name: 'p', content: { type: 'chat', prompt } })).toThrow(
      'Cannot create prompt, variables and placeholders must be unique, the following are not: userName',
    );
  });

  it('has the shape of the SDK’s request types', () => {
    const body: CreatePromptBody = buildCreatePromptBody({
      name: 'p',
      content: { type: 'chat', prompt: [{ type: 'placeholder', name: 'h' }] },
    });
    if (body.type !== 'chat') throw new Error('expected a chat body');
    // A compile-time check: the assignment fails type-checking if the shapes drift apart.
    const sdkBody: CreateChatPromptBodyWithPlaceholders = body;
    expect(sdkBody.prompt).toEqual([{ type: 'placeholder', name: 'h' }]);
  });
});
