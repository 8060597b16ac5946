// One trace: its observations as a tree beside a timeline, the chosen observation's input,
// output, usage and cost per usage type (with the model definition and pricing tier that priced
// it), the trace's scores, and the whole trace as a JSON download.
import { useState } from 'preact/hooks';
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
  latency: number;
  totalCost: number;
  observations: Observation[];
  scores: Score[];
}

export function TracePage({ id }: { id: string }) {
  const { data: trace, error } = useData(id, () => api.get<Trace>(`/api/public/traces/${encodeURIComponent(id)}`));
  const [selected, setSelected] = useState<string | null>(null);
  if (error) return <p role="alert">{error}</p>;
  if (!trace) return <p aria-busy="true">Loading…</p>;
  const observation = trace.observations.find((o) => o.id === selected) ?? null;
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
        <dt>Latency</dt>
        <dd>{formatLatency(trace.latency)}</dd>
        <dt>Total cost</dt>
        <dd data-testid="trace-total-cost">{formatCost(trace.totalCost)}</dd>
      </dl>
      <p>
        <a class="button" href={`/api/public/traces/${encodeURIComponent(trace.id)}`} download={`trace-${trace.id}.json`}>
          Download as JSON
        </a>
      </p>
      <div class="trace-layout">
        <ObservationTree trace={trace} selected={selected} onSelect={setSelected} />
        <div class="detail">
          {observation ? <ObservationDetail observation={observation} /> : <TraceDetail trace={trace} />}
          <Scores scores={trace.scores.filter((s) => (observation ? s.observationId === observation.id : true))} />
        </div>
      </div>
    </section>
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
