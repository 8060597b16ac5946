// What the traces and observations lists share: links that download the current filter, and
// paging by cursor (the cursors of the pages before are kept, so "Previous page" goes back).

export function ExportLinks({ list, query }: { list: 'traces' | 'observations'; query: URLSearchParams }) {
  return (
    <div class="exports" aria-label="Export">
      Export this filter:{' '}
      {(['csv', 'json', 'jsonl'] as const).map((format) => (
        <a class="button" href={`/ui/api/export/${list}?${new URLSearchParams([...query, ['format', format]])}`} download>
          {format.toUpperCase()}
        </a>
      ))}
    </div>
  );
}

interface PagerProps {
  /** The cursors of the pages walked to, the current page's last. */
  cursors: string[];
  setCursors: (cursors: string[]) => void;
  /** The next page's cursor; null or undefined on the last page (or while loading). */
  next: string | null | undefined;
}

export function Pager({ cursors, setCursors, next }: PagerProps) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
        Previous page
      </button>
      <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
        Next page
      </button>
    </nav>
  );
}
