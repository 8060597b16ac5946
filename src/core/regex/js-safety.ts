/**
 * The server accepts a tier's `usageDetailPattern` only if `safe-regex2` calls it safe: at most
 * one level of nested repetition ("star height" <= 1) and at most 25 repetitions overall. That
 * library tokenizes with `ret`, which knows no lazy quantifiers: `a*?` reads as a repetition of
 * a repetition and is therefore unsafe. This reproduces that reading.
 */
export type SafetyVerdict = { safe: true } | { safe: false; reason: string };

const REPETITION_LIMIT = 25;

interface Frame {
  /** Star height of each item in the current sequence. */
  items: number[];
  /** Star height of completed alternatives of this group. */
  max: number;
}

export function checkRegexSafety(pattern: string): SafetyVerdict {
  const stack: Frame[] = [{ items: [], max: 0 }];
  let reps = 0;
  let i = 0;
  const top = (): Frame => stack[stack.length - 1]!;
  const repeatLast = (): SafetyVerdict | null => {
    const items = top().items;
    if (items.length === 0) return { safe: false, reason: 'nothing to repeat' };
    items[items.length - 1]! += 1;
    reps++;
    return null;
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      i += 2;
      top().items.push(0);
      continue;
    }
    if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      if (i >= pattern.length) return { safe: false, reason: 'unterminated character class' };
      i++;
      top().items.push(0);
      continue;
    }
    if (c === '(') {
      i++;
      if (pattern[i] === '?') i += pattern[i + 1] === '<' && (pattern[i + 2] === '=' || pattern[i + 2] === '!') ? 3 : 2;
      stack.push({ items: [], max: 0 });
      continue;
    }
    if (c === ')') {
      if (stack.length === 1) return { safe: false, reason: 'unmatched ")"' };
      const frame = stack.pop()!;
      top().items.push(Math.max(frame.max, ...frame.items, 0));
      i++;
      continue;
    }
    if (c === '|') {
      const frame = top();
      frame.max = Math.max(frame.max, ...frame.items, 0);
      frame.items = [];
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      const err = repeatLast();
      if (err) return err;
      i++;
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d+)?)?\}/.exec(pattern.slice(i));
      if (m) {
        const err = repeatLast();
        if (err) return err;
        i += m[0].length;
        continue;
      }
    }
    top().items.push(0);
    i++;
  }
  if (stack.length !== 1) return { safe: false, reason: 'unterminated group' };
  const height = Math.max(top().max, ...top().items, 0);
  if (height > 1) return { safe: false, reason: 'nested repetition (e.g. (a+)+ or a lazy quantifier such as *?) can take exponential time' };
  if (reps > REPETITION_LIMIT) return { safe: false, reason: `more than ${REPETITION_LIMIT} repetitions` };
  return { safe: true };
}
