// Answers too large to build in one go (a trace with 100,000 observations): the handler returns
// an object whose values may be read later, in slices, each slice in a read transaction of its
// own. Between slices the event loop runs whatever else waits (health checks, ingestion), and the
// writer waits for the client to take what was sent, so the server holds one slice of the answer
// at a time, whatever its size. Slices see the store as it is when each is read: writes that land
// meanwhile may show in later slices, as they would in a page walked by cursor. Objects inside
// the answer may have such members too (SlicedObject: a listed trace with its many ids).
//
// The answer goes out with chunked transfer encoding. A failure after the status line cannot
// change the status: the connection is cut, so the client sees a truncated answer, never a
// complete-looking one.
import type { ServerResponse } from 'node:http';
import type { ReadSlice, Store, Tx } from '../store/index.js';

export type { ReadSlice };

/** An array of the answer read in slices: `next` answers the next items, or undefined when done. */
export class SlicedArray {
  constructor(readonly next: (tx: Tx) => readonly unknown[] | undefined) {}
}

/** Slices that start with one already read (a handler's first, read in its own transaction). */
export function slicesAfter(first: readonly unknown[], next: (tx: Tx) => readonly unknown[] | undefined): SlicedArray {
  let given = false;
  return new SlicedArray((tx) => (given ? next(tx) : ((given = true), first)));
}

/** An array already read, written `size` items at a time (a long list of ids). */
export function inPieces(items: readonly unknown[], size: number): SlicedArray {
  let at = 0;
  return new SlicedArray(() => {
    if (at >= items.length) return undefined;
    at += size;
    return items.slice(at - size, at);
  });
}

/**
 * A value of the answer computed when the writer reaches it (after the slices before it);
 * `whole` computes it at once, inside one transaction (see wholeBody).
 */
export class LateValue {
  constructor(
    readonly get: (read: ReadSlice) => unknown,
    readonly whole: (tx: Tx) => unknown = () => undefined,
  ) {}
}

/**
 * An object inside the answer whose members may be sliced or late, as the body's may: in an
 * array of the body or of a SlicedArray's items.
 */
export class SlicedObject {
  constructor(readonly members: Record<string, unknown>) {}
}

/**
 * A value of the answer already written as JSON (UTF-8), by the read thread: the writer sends it
 * as it is, a piece at a time, without parsing it.
 */
export class RawJson {
  constructor(readonly bytes: Uint8Array) {}
}

/** Bytes of a RawJson sent at a time. */
const RAW_PIECE = 1 << 20;

/** A value of the answer the writer writes piece by piece. */
const isLate = (value: unknown): boolean =>
  value instanceof SlicedArray ||
  value instanceof LateValue ||
  value instanceof SlicedObject ||
  value instanceof RawJson ||
  (Array.isArray(value) && value.some((item) => item instanceof SlicedObject));

/** The body with every slice read and every late value computed in `tx`: for a caller in the same process. */
export function wholeBody(body: Record<string, unknown>, tx: Tx): Record<string, unknown> {
  const whole = (value: unknown): unknown => {
    if (value instanceof SlicedArray) {
      const items: unknown[] = [];
      for (let slice = value.next(tx); slice; slice = value.next(tx)) items.push(...slice.map(whole));
      return items;
    }
    if (value instanceof LateValue) return value.whole(tx);
    if (value instanceof SlicedObject) return wholeBody(value.members, tx);
    if (value instanceof RawJson) return JSON.parse(Buffer.from(value.bytes).toString('utf8'));
    return Array.isArray(value) && isLate(value) ? value.map(whole) : value;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) out[key] = whole(value);
  return out;
}

/** True when the body has values the writer reads later (then it must go through writeSliced). */
export function isSliced(body: unknown): body is Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  return Object.values(body).some(isLate);
}

/** The client closed the connection before the answer was whole: nothing more to do. */
class ClientGone extends Error {}

// The event loop's turns, shared by the steps of the requests that run side by side: a large
// request's steps (its parts, its answer's slices) and the ingestion requests that arrive together
// (their bodies read in one turn). A step that waits for a turn (breathe, or ownTurn once this
// turn's steps have run for TURN_MS) joins one queue; each turn lets steps of the queue run, first
// come first, until the turn's TURN_MS are spent. I/O callbacks (new connections, health checks)
// and timers run between turns, and no request's steps keep the others waiting. Requests that
// cost little (health, reads of a page) run as they come.

/** How long the steps of one turn may run before the next ones wait for a later turn. */
const TURN_MS = 20;

/** When this turn's steps began; undefined before any has run. */
let turnStart: number | undefined;

/** The steps waiting for a turn, first come first; one `letIn` is pending for each. */
const waiting: Array<() => void> = [];

const endTurn = (): void => {
  turnStart = undefined;
};

/** Whether this turn's steps have run for TURN_MS; starts a turn when none has begun. */
function spent(): boolean {
  if (turnStart === undefined) {
    turnStart = performance.now();
    setImmediate(endTurn);
    return false;
  }
  return performance.now() - turnStart >= TURN_MS;
}

/**
 * Lets the first waiting step run if this turn has time left, else waits for the next turn. Each
 * runs as an immediate of its own, so the step let in has run (its promise callbacks included)
 * before the next `letIn` looks at the time.
 */
function letIn(): void {
  if (spent()) setImmediate(letIn);
  else waiting.shift()?.();
}

/** Lets the event loop run what is waiting (I/O callbacks first) before going on: a turn later at the earliest, behind the steps already waiting. */
export function breathe(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    setImmediate(letIn);
  });
}

/** Resolves at once while nothing waits and this turn's steps have run for less than TURN_MS, else in the queue (breathe). */
export function ownTurn(): Promise<void> {
  return waiting.length > 0 || spent() ? breathe() : Promise.resolve();
}

/** Sends `text`; resolves when the client may take more (at once, or after 'drain'); rejects when it is gone. */
function send(res: ServerResponse, text: string | Uint8Array): Promise<void> {
  if (res.destroyed) return Promise.reject(new ClientGone());
  if (res.write(text)) return breathe();
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new ClientGone());
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** Slices read each in a read transaction of its own, after the event loop has had its turn. */
export const readSlices =
  (store: Store): ReadSlice =>
  async (fn) => {
    await breathe();
    return store.read(fn);
  };

/** Writes a status and an object whose values may be sliced or late; the headers are the caller's. */
export async function writeSliced(res: ServerResponse, status: number, headers: Record<string, string>, body: Record<string, unknown>, store: Store): Promise<void> {
  const read = readSlices(store);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  // What is written but not sent yet: it goes out with the next slice, or at the end.
  let pending = '';
  const write = async (value: unknown): Promise<void> => {
    if (value instanceof SlicedArray) {
      pending += '[';
      let empty = true;
      for (;;) {
        const items = await read((tx) => value.next(tx));
        if (!items) break;
        if (items.length === 0) continue;
        if (items.some((item) => item instanceof SlicedObject)) {
          for (const item of items) {
            pending += empty ? '' : ',';
            empty = false;
            await write(item);
          }
          continue;
        }
        // One stringify for the slice, its brackets cut off: much faster than one per item.
        const text = JSON.stringify(items);
        await send(res, `${pending}${empty ? '' : ','}${text.slice(1, -1)}`);
        pending = '';
        empty = false;
      }
      pending += ']';
    } else if (value instanceof LateValue) {
      pending += JSON.stringify(await value.get(read)) ?? 'null';
    } else if (value instanceof SlicedObject) {
      pending += '{';
      let first = true;
      for (const [key, member] of Object.entries(value.members)) {
        if (member === undefined) continue;
        pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        await write(member);
      }
      pending += '}';
    } else if (value instanceof RawJson) {
      if (pending) await send(res, pending);
      pending = '';
      for (let at = 0; at < value.bytes.length; at += RAW_PIECE) await send(res, value.bytes.subarray(at, at + RAW_PIECE));
    } else if (Array.isArray(value) && isLate(value)) {
      pending += '[';
      for (const [i, item] of value.entries()) {
        pending += i === 0 ? '' : ',';
        await write(item);
      }
      pending += ']';
    } else {
      pending += JSON.stringify(value) ?? 'null';
    }
  };
  try {
    await write(new SlicedObject(body));
    res.end(pending);
  } catch (error) {
    res.destroy();
    if (!(error instanceof ClientGone)) throw error;
  }
}
