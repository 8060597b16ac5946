// Where a blob export writes: a local folder (local.ts) or an S3 bucket (s3.ts), behind one shape.
// Keys are Langfuse's (`{prefix}{projectId}/{table}/{timestamp}.{ext}`); a target adds its own root.
import type { Readable } from 'node:stream';

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
