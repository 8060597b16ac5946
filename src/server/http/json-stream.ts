// Answers too large to build in one go (a trace with 100,000 observations): the handler returns
// an object whose values may be read later, in slices, each slice in a read transaction of its
// own. Between slices the event loop runs whatever else waits (health checks, ingestion), and the
// writer waits for the client to take what was sent, so the server holds one slice of the answer
// at a time, whatever its size. Slices see the store as it is when each is read: writes that land
// meanwhile may show in later slices, as they would in a page walked by cursor.
//
// The answer goes out with chunked transfer encoding. A failure after the status line cannot
// change the status: the connection is cut, so the client sees a truncated answer, never a
// complete-looking one.
import type { ServerResponse } from 'node:http';
import type { Store, Tx } from '../store/index.js';

/** Reads one slice in a read transaction of its own, after the event loop has had its turn. */
export type ReadSlice = <T>(fn: (tx: Tx) => T) => Promise<T>;

/** An array of the answer read in slices: `next` answers the next items, or undefined when done. */
export class SlicedArray {
  constructor(readonly next: (tx: Tx) => readonly unknown[] | undefined) {}
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

/** The body with every slice read and every late value computed in `tx`: for a caller in the same process. */
export function wholeBody(body: Record<string, unknown>, tx: Tx): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value instanceof SlicedArray) {
      const items: unknown[] = [];
      for (let slice = value.next(tx); slice; slice = value.next(tx)) items.push(...slice);
      out[key] = items;
    } else if (value instanceof LateValue) {
      out[key] = value.whole(tx);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** True when the body has values the writer reads later (then it must go through writeSliced). */
export function isSliced(body: unknown): body is Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  return Object.values(body).some((value) => value instanceof SlicedArray || value instanceof LateValue);
}

/** The client closed the connection before the answer was whole: nothing more to do. */
class ClientGone extends Error {}

/** Lets the event loop run what is waiting (I/O callbacks first) before going on. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Sends `text`; resolves when the client may take more (at once, or after 'drain'); rejects when it is gone. */
function send(res: ServerResponse, text: string): Promise<void> {
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

/** Writes a status and an object whose values may be sliced or late; the headers are the caller's. */
export async function writeSliced(res: ServerResponse, status: number, headers: Record<string, string>, body: Record<string, unknown>, store: Store): Promise<void> {
  const read: ReadSlice = async (fn) => {
    await breathe();
    return store.read(fn);
  };
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  try {
    let pending = '{';
    let first = true;
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined) continue;
      pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (value instanceof SlicedArray) {
        pending += '[';
        let empty = true;
        for (;;) {
          const items = await read((tx) => value.next(tx));
          if (!items) break;
          if (items.length === 0) continue;
          // One stringify for the slice, its brackets cut off: much faster than one per item.
          const text = JSON.stringify(items);
          await send(res, `${pending}${empty ? '' : ','}${text.slice(1, -1)}`);
          pending = '';
          empty = false;
        }
        pending += ']';
      } else if (value instanceof LateValue) {
        pending += JSON.stringify(await value.get(read)) ?? 'null';
      } else {
        pending += JSON.stringify(value) ?? 'null';
      }
    }
    res.end(`${pending}}`);
  } catch (error) {
    res.destroy();
    if (!(error instanceof ClientGone)) throw error;
  }
}
