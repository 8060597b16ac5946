// Where a blob export writes: a local folder (local.ts) or an S3 bucket (s3.ts), behind one shape.
// Keys are Langfuse's (`{prefix}{projectId}/{table}/{timestamp}.{ext}`); a target adds its own root.
import { type Readable, Transform } from 'node:stream';

export interface BlobTarget {
  /** DEST as the user gave it, for messages. */
  readonly shown: string;
  /** Every key under `prefix` (relative to the target's root). */
  list(prefix: string): Promise<string[]>;
  /** A small object's text (a manifest), or undefined when there is none; larger than `limit` bytes is an error. */
  read(key: string, limit: number): Promise<string | undefined>;
  /**
   * Writes `body` to `key`, replacing what is there only once the whole body is stored: a failed
   * or killed write leaves the key as it was. Resolves with the bytes stored.
   */
  put(key: string, body: Readable, contentType: string): Promise<number>;
  /** Checks that the target can be written (before any data is read), if it can tell. */
  check(): Promise<void>;
  /** Lets go of what the target holds (a lock, connections). */
  close(): Promise<void>;
}

/** A binary file format written as rows arrive (Parquet): bytes ready so far, then the rest. */
export interface BinaryEncoder {
  rows(rows: readonly Record<string, unknown>[]): Uint8Array | undefined;
  finish(): Uint8Array;
}

/**
 * The prefix after a bucket or container in a DEST URL, given a final `/` when it has none ('' for
 * none); an error for one that starts with `/` or holds `//`.
 */
export function destPrefix(text: string | undefined): string | { error: string } {
  const prefix = text ?? '';
  if (prefix.startsWith('/') || prefix.includes('//')) return { error: 'the prefix must not start with / or hold //' };
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/**
 * Feeds `body` to `upload` through a stream that counts its bytes, and resolves with the count.
 * When the body fails, its error is the news (the upload's abort may fail after it); any other
 * failure of the upload goes through `wrap`.
 */
export async function uploadCounted(body: Readable, upload: (stream: Readable) => Promise<unknown>, wrap: (error: unknown) => Error): Promise<number> {
  let bytes = 0;
  let failed: unknown;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  body.on('error', (error) => {
    failed = error;
    counter.destroy(error);
  });
  body.pipe(counter);
  try {
    await upload(counter);
  } catch (error) {
    body.destroy();
    if (failed) throw failed;
    throw wrap(error);
  }
  if (failed) throw failed;
  return bytes;
}
