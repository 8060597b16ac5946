import type { InStream } from '../context.js';

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: InStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** A secret piped in with `printf`, `echo` or a heredoc: one line, trailing newline dropped. */
export async function readSecret(stream: InStream): Promise<string> {
  return (await readAll(stream)).replace(/\r?\n$/, '').trim();
}
