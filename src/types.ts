// Types that every layer shares: the process's streams and the global options. A leaf that
// imports nothing of ours, so that any module may use them without making an import cycle.

/** Where a command writes: stdout or stderr, a file descriptor's writer, or a test's buffer. */
export interface OutStream {
  write(chunk: string | Uint8Array): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean | undefined;
}

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
}

export interface GlobalOptions {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  json: boolean;
  verbose: boolean;
  color: boolean;
  timeout: number;
  retries: number;
  /** Most pages a listing follows. */
  maxPages: number;
  /** --jq: a jq filter applied to the JSON output (implies json). */
  jq?: string | undefined;
  /** --csv: tables as CSV. */
  csv?: boolean | undefined;
  /** --headers / --no-headers. */
  headers?: boolean | undefined;
}
