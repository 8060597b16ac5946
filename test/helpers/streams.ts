import { PassThrough, Readable } from 'node:stream';

/** A writable that records what was written, optionally pretending to be a terminal. */
export class Capture {
  text = '';
  isTTY: boolean;
  columns = 120;
  constructor(isTTY = false) {
    this.isTTY = isTTY;
  }
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }
}

export function stdinFrom(text: string | undefined, isTTY = false): NodeJS.ReadableStream & { isTTY?: boolean } {
  const stream = text === undefined ? new PassThrough() : Readable.from([Buffer.from(text)]);
  if (text === undefined) (stream as PassThrough).end();
  return Object.assign(stream, { isTTY });
}
