// One trace: its observations as a tree beside a timeline, the chosen observation's input,
// output, usage and cost per usage type (with the model definition and pricing tier that priced
// it), the trace's scores, and the whole trace as a JSON download. The observations come a page at
// a time (the first by start time, more on request), so a trace of any size opens without the
// browser or the server holding all of it; the download streams the whole trace.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatCost, formatLatency, formatTime } from '../format.js';
import { IoView } from '../parts/io-view.js';
import { JsonView } from '../parts/json-view.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';
import { type Observation, ObservationTree } from './observation-tree.js';
import { UsageCost } from './usage-cost.js';

interface Score {
  id: string;
  name: string;
  value: number | string | null;
  stringValue?: string | null;
  dataType: string;
  source: string;
  comment: string | null;
  observationId: string | null;
}

export interface Trace {
  id: string;
  name: string | null;
  timestamp: string;
  userId: string | null;
  sessionId: string | null;
  environment: string;
  tags: string[];
  input: unknown;
  output: unknown;
  metadata: unknown;
  scores: Score[];
}

/** A page of /ui/api/traces/observations (src/server/ui/trace-observations.ts). */
interface ObservationPage {
  data: Observation[];
  nextCursor: string | null;
  /** With the first page only: the trace's count of observations, latency (seconds) and cost. */
  total?: number;
  latency?: number;
  totalCost?: number;
}

interface Loaded {
  observations: Observation[];
  nextCursor: string | null;
  total: number;
  latency?: number;
  totalCost?: number;
  loading: boolean;
  error?: string;
}

const observationsOf = (traceId: string, cursor?: string) => api.get<ObservationPage>('/ui/api/traces/observations', { traceId, cursor });

/** The trace's observations loaded so far, and a way to load the next page. */
function useObservations(traceId: string): [Loaded, () => void] {
  const [state, setState] = useState<Loaded>({ observations: [], nextCursor: null, total: 0, loading: true });
  useEffect(() => {
    let live = true;
    setState({ observations: [], nextCursor: null, total: 0, loading: true });
    observationsOf(traceId).then(
      (page) => live && setState({ observations: page.data, nextCursor: page.nextCursor, total: page.total ?? page.data.length, latency: page.latency, totalCost: page.totalCost, loading: false }),
      (error: unknown) => live && setState((s) => ({ ...s, loading: false, error: error instanceof Error ? error.message : String(error) })),
    );
    return () => {
      live = false;
    };
  }, [traceId]);
  const more = () => {
    if (!state.nextCursor || state.loading) return;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    observationsOf(traceId, state.nextCursor).then(
      (page) => setState((s) => ({ ...s, observations: [...s.observations, ...page.data], nextCursor: page.nextCursor, loading: false })),
      (error: unknown) => setState((s) => ({ ...s, loading: false, error: error instanceof Error ? error.message : String(error) })),
    );
  };
  return [state, more];
}

export function TracePage({ id }: { id: string }) {
  // The trace without its observations and their sums: those come with the first page below.
  const { data: trace, error } = useData(id, () => api.get<Trace>(`/api/public/traces/${encodeURIComponent(id)}`, { fields: 'core,io,scores' }));
  const [observations, loadMore] = useObservations(id);
  const [selected, setSelected] = useState<string | null>(null);
  if (error) return <p role="alert">{error}</p>;
  // The page shows once the trace and its first page of observations (with its sums) are here.
  if (!trace || (observations.loading && observations.observations.length === 0)) return <p aria-busy="true">Loading…</p>;
  const observation = observations.observations.find((o) => o.id === selected) ?? null;
  const download = `/api/public/traces/${encodeURIComponent(trace.id)}`;
  return (
    <section>
      <p>
        <a href={href(['traces'])}>← Traces</a>
      </p>
      <h1>{trace.name ?? trace.id}</h1>
      <dl class="facts">
        <dt>Trace ID</dt>
        <dd>
          <code>{trace.id}</code>
        </dd>
        <dt>Time</dt>
        <dd>{formatTime(trace.timestamp)}</dd>
        {trace.userId ? (
          <>
            <dt>User</dt>
            <dd>{trace.userId}</dd>
          </>
        ) : null}
        {trace.sessionId ? (
          <>
            <dt>Session</dt>
            <dd>{trace.sessionId}</dd>
          </>
        ) : null}
        <dt>Environment</dt>
        <dd>{trace.environment}</dd>
        <dt>Observations</dt>
        <dd>{observations.total.toLocaleString('en-US')}</dd>
        <dt>Latency</dt>
        <dd>{formatLatency(observations.latency)}</dd>
        <dt>Total cost</dt>
        <dd data-testid="trace-total-cost">{formatCost(observations.totalCost)}</dd>
      </dl>
      <p>
        <a class="button" href={download} download={`trace-${trace.id}.json`}>
          Download as JSON
        </a>
      </p>
      <PartialNotice loaded={observations} onMore={loadMore} download={download} traceId={trace.id} />
      {observations.error ? <p role="alert">{observations.error}</p> : null}
      <div class="trace-layout">
        <ObservationTree trace={{ ...trace, observations: observations.observations }} selected={selected} onSelect={setSelected} />
        <div class="detail">
          {observation ? <ObservationDetail observation={observation} /> : <TraceDetail trace={trace} />}
          <Scores scores={trace.scores.filter((s) => (observation ? s.observationId === observation.id : true))} />
        </div>
      </div>
    </section>
  );
}

/** Says how many observations the tree leaves out, and how to get them. */
function PartialNotice({ loaded, onMore, download, traceId }: { loaded: Loaded; onMore: () => void; download: string; traceId: string }) {
  if (!loaded.nextCursor) return null;
  const shown = loaded.observations.length;
  const left = Math.max(0, loaded.total - shown);
  const next = Math.min(left || Infinity, 1000);
  return (
    <p role="status" class="notice" data-testid="observations-notice">
      Showing the first {shown.toLocaleString('en-US')} of {loaded.total.toLocaleString('en-US')} observations by start time; {left.toLocaleString('en-US')} not shown.{' '}
      <button type="button" onClick={onMore} disabled={loaded.loading}>
        {loaded.loading ? 'Loading…' : `Load ${next.toLocaleString('en-US')} more`}
      </button>{' '}
      All of them: <a href={download} download={`trace-${traceId}.json`}>download as JSON</a>, or <a href={href(['observations'], { traceId })}>the observations list</a>.
    </p>
  );
}

function TraceDetail({ trace }: { trace: Trace }) {
  return (
    <>
      <h2>Trace</h2>
      <IoView title="Input" value={trace.input} />
      <IoView title="Output" value={trace.output} />
      {trace.metadata && Object.keys(trace.metadata).length > 0 ? (
        <section aria-label="Metadata">
          <h4>Metadata</h4>
          <JsonView value={trace.metadata} />
        </section>
      ) : null}
    </>
  );
}

function ObservationDetail({ observation }: { observation: Observation }) {
  return (
    <>
      <h2>
        {observation.name ?? observation.id} <span class="badge">{observation.type}</span>
      </h2>
      <dl class="facts">
        <dt>Start</dt>
        <dd>{formatTime(observation.startTime)}</dd>
        {observation.model ? (
          <>
            <dt>Model</dt>
            <dd>{observation.model}</dd>
          </>
        ) : null}
        {observation.level !== 'DEFAULT' ? (
          <>
            <dt>Level</dt>
            <dd>{observation.level}</dd>
          </>
        ) : null}
        {observation.statusMessage ? (
          <>
            <dt>Status</dt>
            <dd>{observation.statusMessage}</dd>
          </>
        ) : null}
      </dl>
      <UsageCost observation={observation} />
      <IoView title="Input" value={observation.input} />
      <IoView title="Output" value={observation.output} />
      {observation.metadata && Object.keys(observation.metadata).length > 0 ? (
        <section aria-label="Metadata">
          <h4>Metadata</h4>
          <JsonView value={observation.metadata} />
        </section>
      ) : null}
    </>
  );
}

function Scores({ scores }: { scores: Score[] }) {
  if (scores.length === 0) return null;
  return (
    <section aria-label="Scores">
      <h3>Scores</h3>
      <table class="grid">
        <thead>
          <tr>
            <th>Name</th>
            <th>Value</th>
            <th>Source</th>
            <th>Comment</th>
          </tr>
        </thead>
        <tbody>
          {scores.map((score) => (
            <tr>
              <td>{score.name}</td>
              <td>{score.stringValue ?? String(score.value ?? '')}</td>
              <td>{score.source}</td>
              <td>{score.comment}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
