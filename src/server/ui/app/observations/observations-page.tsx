// The observations list: newest first, filtered by the fields of the form, paged by the v2
// observations API's own cursor; its filter exports as CSV, JSON or JSON Lines.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatCost, formatLatency, formatNumber, formatTime } from '../format.js';
import { type FilterField, FilterForm, type FilterValues } from '../parts/filter-form.js';
import { ExportLinks, Pager } from '../parts/list-parts.js';
import { useData } from '../parts/use-data.js';
import { href, navigate } from '../router.js';

interface ObservationRow {
  id: string;
  traceId: string | null;
  startTime: string;
  type: string;
  name: string | null;
  level: string;
  userId: string | null;
  environment: string;
  providedModelName: string | null;
  usageDetails: Record<string, number>;
  totalCost: number | null;
  latency: number | null;
}

const TYPES = ['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL'];
const LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'];
const FIELDS: readonly FilterField[] = [
  { key: 'type', label: 'Type', options: TYPES },
  { key: 'level', label: 'Level', options: LEVELS },
  { key: 'name', label: 'Name' },
  { key: 'userId', label: 'User' },
  { key: 'environment', label: 'Environment' },
  { key: 'traceId', label: 'Trace ID' },
  { key: 'fromStartTime', label: 'From', type: 'datetime-local' },
  { key: 'toStartTime', label: 'To', type: 'datetime-local' },
];
const KEYS = FIELDS.map((f) => f.key);

function toIso(local: string | undefined): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function ObservationsPage({ query }: { query: URLSearchParams }) {
  const filter: Record<string, string | undefined> = Object.fromEntries(KEYS.map((k) => [k, query.get(k) ?? undefined]));
  const asked = { ...filter, fromStartTime: toIso(filter.fromStartTime), toStartTime: toIso(filter.toStartTime) };
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const { data, error, loading, reload } = useData(JSON.stringify([filter, cursor]), () =>
    api.get<{ data: ObservationRow[]; meta: { cursor?: string } }>('/api/public/v2/observations', { ...asked, cursor, limit: 50, fields: 'core,basic,model,usage,metrics' }),
  );

  const apply = (next: FilterValues) => {
    setCursors([]);
    if (JSON.stringify(next) === JSON.stringify(filter)) reload();
    else navigate(['observations'], next);
  };
  const exportQuery = new URLSearchParams(Object.entries(asked).filter((e): e is [string, string] => Boolean(e[1])));

  return (
    <section>
      <h1>Observations</h1>
      <FilterForm key={JSON.stringify(filter)} label="Filter observations" fields={FIELDS} values={filter} onApply={apply} />
      <ExportLinks list="observations" query={exportQuery} />
      {error ? <p role="alert">{error}</p> : null}
      <table class="grid" aria-busy={loading} aria-label="Observations">
        <thead>
          <tr>
            <th>Start</th>
            <th>Type</th>
            <th>Name</th>
            <th>Model</th>
            <th>User</th>
            <th>Level</th>
            <th class="num">Latency</th>
            <th class="num">Tokens</th>
            <th class="num">Cost</th>
          </tr>
        </thead>
        <tbody>
          {data?.data.map((o) => (
            <tr>
              <td>{o.traceId ? <a href={href(['traces', o.traceId])}>{formatTime(o.startTime)}</a> : formatTime(o.startTime)}</td>
              <td>{o.type}</td>
              <td>{o.name}</td>
              <td>{o.providedModelName}</td>
              <td>{o.userId}</td>
              <td>{o.level}</td>
              <td class="num">{formatLatency(o.latency)}</td>
              <td class="num">{formatNumber(o.usageDetails.total ?? Object.values(o.usageDetails).reduce((a, b) => a + b, 0))}</td>
              <td class="num">{formatCost(o.totalCost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.data.length === 0 ? <p>No observations{cursor ? ' on this page' : ' match'}.</p> : null}
      <Pager cursors={cursors} setCursors={setCursors} next={data?.meta.cursor} />
    </section>
  );
}
