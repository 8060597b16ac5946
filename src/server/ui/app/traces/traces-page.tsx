// The traces list: newest first, filtered by the fields of the form, paged by cursor.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatCost, formatLatency, formatNumber, formatTime } from '../format.js';
import { type FilterField, FilterForm, type FilterValues } from '../parts/filter-form.js';
import { ExportLinks, Pager } from '../parts/list-parts.js';
import { useData } from '../parts/use-data.js';
import { href, navigate } from '../router.js';

export interface TraceRow {
  id: string;
  timestamp: string;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  environment: string;
  tags: string[];
  latency: number;
  totalCost: number;
  totalTokens: number;
}

const FIELDS: readonly FilterField[] = [
  { key: 'name', label: 'Name' },
  { key: 'userId', label: 'User' },
  { key: 'sessionId', label: 'Session' },
  { key: 'environment', label: 'Environment' },
  { key: 'tags', label: 'Tag' },
  { key: 'fromTimestamp', label: 'From', type: 'datetime-local' },
  { key: 'toTimestamp', label: 'To', type: 'datetime-local' },
];

/** The filter in the page's address, as the list endpoint takes it. */
export function filterOf(query: URLSearchParams): Record<string, string | undefined> {
  const filter: Record<string, string | undefined> = {};
  for (const { key } of FIELDS) filter[key] = query.get(key) ?? undefined;
  return filter;
}

function toIso(local: string | undefined): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function TracesPage({ query }: { query: URLSearchParams }) {
  const filter = filterOf(query);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const key = JSON.stringify([filter, cursor]);
  const { data, error, loading, reload } = useData(key, () =>
    api.get<{ data: TraceRow[]; nextCursor: string | null }>('/ui/api/traces', {
      ...filter,
      fromTimestamp: toIso(filter.fromTimestamp),
      toTimestamp: toIso(filter.toTimestamp),
      cursor,
    }),
  );

  const apply = (next: FilterValues) => {
    setCursors([]);
    // The same filter again reads the list again: new traces may have come in.
    if (JSON.stringify(next) === JSON.stringify(filter)) reload();
    else navigate(['traces'], next);
  };

  const exportQuery = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, fromTimestamp: toIso(filter.fromTimestamp), toTimestamp: toIso(filter.toTimestamp) })) if (v) exportQuery.set(k, v);

  return (
    <section>
      <h1>Traces</h1>
      <FilterForm key={JSON.stringify(filter)} label="Filter traces" fields={FIELDS} values={filter} onApply={apply} />
      <p>
        <a href={href(['traces'])} onClick={() => setCursors([])}>
          Clear filters
        </a>
      </p>
      <ExportLinks list="traces" query={exportQuery} />
      {error ? <p role="alert">{error}</p> : null}
      <table class="grid" aria-busy={loading}>
        <thead>
          <tr>
            <th>Time</th>
            <th>Name</th>
            <th>User</th>
            <th>Session</th>
            <th>Environment</th>
            <th>Tags</th>
            <th class="num">Latency</th>
            <th class="num">Tokens</th>
            <th class="num">Total cost</th>
          </tr>
        </thead>
        <tbody>
          {data?.data.map((row) => (
            <tr>
              <td>
                <a href={href(['traces', row.id])}>{formatTime(row.timestamp)}</a>
              </td>
              <td>
                <a href={href(['traces', row.id])}>{row.name ?? row.id}</a>
              </td>
              <td>{row.userId}</td>
              <td>{row.sessionId}</td>
              <td>{row.environment}</td>
              <td>
                {row.tags.map((tag) => (
                  <span class="tag">{tag}</span>
                ))}
              </td>
              <td class="num">{formatLatency(row.latency)}</td>
              <td class="num">{formatNumber(row.totalTokens)}</td>
              <td class="num">{formatCost(row.totalCost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.data.length === 0 ? <p>No traces{cursor ? ' on this page' : ' match'}.</p> : null}
      <Pager cursors={cursors} setCursors={setCursors} next={data?.nextCursor} />
    </section>
  );
}
