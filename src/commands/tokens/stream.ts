// The text of `tokens count --file` (or stdin), streamed through the counter: memory stays flat
// whatever the size.
import type { Context } from '../../context.js';
import { FileError } from '../../errors.js';
import { cannotRead, openInputStream } from '../../io/files.js';

/**
 * Text with no place to cut it (no word boundary: /dev/zero, a run of one symbol) is held until
 * one comes, then counted (a long piece in windows of bounded size, see long-piece.ts). What is
 * held is what the memory grows with: past this many characters it is refused, which bounds the
 * memory whatever the size of the input (and /dev/zero never ends).
 */
const MAX_UNCUT_CHARS = 4 * 1024 * 1024;

export interface StreamCounter {
  write(chunk: string): void;
  end(): number;
  /** Characters held, waiting for a place to cut. */
  readonly pending: number;
}

export async function countStream(ctx: Context, file: string, counter: StreamCounter): Promise<number> {
  const { stream } = await openInputStream(ctx, file, 1 << 20);
  // A streaming decoder keeps multi-byte characters split across chunks intact, and the BOM.
  stream.setEncoding('utf8');
  try {
    for await (const chunk of stream) {
      counter.write(chunk as string);
      if (counter.pending > MAX_UNCUT_CHARS) {
        (stream as { destroy?: () => void }).destroy?.();
        throw new FileError(`it has more than ${MAX_UNCUT_CHARS / 1024 / 1024} M characters without a word boundary, the most llmobs counts as one piece`, {
          hint: 'Check that it is text (not a binary file or a device such as /dev/zero).',
        });
      }
    }
  } catch (error) {
    throw cannotRead(file, error);
  }
  return counter.end();
}
