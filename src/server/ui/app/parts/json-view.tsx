// JSON as a folded tree: objects and arrays open on click, short ones open at first.
import type { ComponentChildren } from 'preact';

const OPEN_BELOW = 8;

export function JsonView({ value, label }: { value: unknown; label?: string }) {
  return (
    <div class="json" aria-label={label}>
      <Node value={value} depth={0} />
    </div>
  );
}

function Node({ value, depth, name }: { value: unknown; depth: number; name?: ComponentChildren }) {
  const key = name === undefined ? null : <span class="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <div class="json-leaf">
        {key}
        <span class={`json-${value === null ? 'null' : typeof value}`}>{typeof value === 'string' ? JSON.stringify(value) : String(value)}</span>
      </div>
    );
  }
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div class="json-leaf">
        {key}
        {brackets.join('')}
      </div>
    );
  }
  return (
    <details class="json-node" open={depth < 2 && entries.length < OPEN_BELOW}>
      <summary>
        {key}
        {brackets[0]}
        <span class="json-count">{entries.length} {Array.isArray(value) ? 'items' : 'keys'}</span>
        {brackets[1]}
      </summary>
      <div class="json-children">
        {entries.map(([k, v]) => (
          <Node value={v} depth={depth + 1} name={k} />
        ))}
      </div>
    </details>
  );
}
