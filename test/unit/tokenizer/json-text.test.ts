// The tokenizer's "parse as JSON when it is JSON" step, which ingestion runs on every input and
// output: text that cannot be JSON skips the parse (a thrown parse error per generation was a fifth
// of the pipeline's time when outputs were plain text), and the result must stay JSON.parse's.
import { describe, expect, it } from 'vitest';
import { parseJsonPrioritised } from '../../../src/tokenizer/index.js';

function reference(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const PIECES = ['', ' ', '\t', '\n', '\r', '\u00a0', '\ufeff', '\u2028', '{', '}', '[', ']', '"', '\\', ',', ':', '-', '+', '.', 'e', 'E', '0', '1', '9', 'true', 'false', 'null', 'nul', 'x', 'é', '{"a":1}', '[1,2]', '"s"'];

describe('parseJsonPrioritised', () => {
  it.each([
    ['Here is a short answer: 100 °C.', 'Here is a short answer: 100 °C.'],
    ['  [{"role":"user","content":"hi"}]', [{ role: 'user', content: 'hi' }]],
    ['\u00a0{"a":1}', '\u00a0{"a":1}'],
    ['1.5E+3', 1500],
    ['01', '01'],
    ['true story', 'true story'],
    ['-', '-'],
    ['', ''],
  ])('%j gives %j', (text, expected) => {
    expect(parseJsonPrioritised(text)).toEqual(expected);
  });

  it('agrees with JSON.parse (falling back to the text) on every text of up to three pieces', () => {
    let checked = 0;
    for (const a of PIECES) {
      for (const b of PIECES) {
        for (const c of PIECES) {
          const text = a + b + c;
          expect(parseJsonPrioritised(text), JSON.stringify(text)).toEqual(reference(text));
          checked++;
        }
      }
    }
    expect(checked).toBe(PIECES.length ** 3);
  });
});
