// The observations of a trace as a tree (by parent) with a timeline bar for each: where it starts
// and how long it takes within the trace.
import { formatCost, formatLatency } from '../format.js';

export interface Observation {
  id: string;
  type: string;
  name: string | null;
  startTime: string;
  endTime: string | null;
  parentObservationId: string | null;
  level: string;
  statusMessage: string | null;
  model: string | null;
  modelId: string | null;
  input: unknown;
  output: unknown;
  metadata: Record<string, unknown> | null;
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  calculatedTotalCost: number | null;
  usagePricingTierName: string | null;
  usagePricingTierId: string | null;
}

interface Row {
  observation: Observation;
  depth: number;
}

function ordered(observations: readonly Observation[]): Row[] {
  const ids = new Set(observations.map((o) => o.id));
  const children = new Map<string | null, Observation[]>();
  for (const o of observations) {
    const parent = o.parentObservationId && ids.has(o.parentObservationId) ? o.parentObservationId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(o);
    else children.set(parent, [o]);
  }
  const rows: Row[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
    for (const o of list) {
      if (seen.has(o.id)) continue;
      seen.add(o.id);
      rows.push({ observation: o, depth });
      walk(o.id, depth + 1);
    }
  };
  walk(null, 0);
  return rows;
}

export function ObservationTree({ trace, selected, onSelect }: { trace: { name: string | null; id: string; observations: Observation[] }; selected: string | null; onSelect: (id: string | null) => void }) {
  const rows = ordered(trace.observations);
  // A loop, not Math.min(...): a long trace's thousands of arguments would overflow the stack.
  let first = Infinity;
  let last = -Infinity;
  for (const o of trace.observations) {
    first = Math.min(first, Date.parse(o.startTime));
    last = Math.max(last, Date.parse(o.endTime ?? o.startTime));
  }
  const span = Math.max(1, last - first);
  return (
    <div class="tree" role="tree" aria-label="Observations">
      <button type="button" role="treeitem" aria-selected={selected === null} class="tree-row" onClick={() => onSelect(null)}>
        <span class="tree-name">{trace.name ?? trace.id}</span>
        <span class="badge">TRACE</span>
      </button>
      {rows.map(({ observation: o, depth }) => {
        const start = Date.parse(o.startTime) - first;
        const duration = Date.parse(o.endTime ?? o.startTime) - Date.parse(o.startTime);
        return (
          <button type="button" role="treeitem" aria-selected={selected === o.id} class="tree-row" style={undefined} data-depth={Math.min(depth + 1, 8)} onClick={() => onSelect(o.id)}>
            <span class="tree-name">
              {o.name ?? o.id} <span class="badge">{o.type}</span>
            </span>
            <span class="tree-meta">
              {formatLatency(duration / 1000)} {o.calculatedTotalCost ? formatCost(o.calculatedTotalCost) : ''}
            </span>
            <svg class="timeline" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true">
              <rect x={(start / span) * 1000} y="0" width={Math.max(2, (duration / span) * 1000)} height="10" />
            </svg>
          </button>
        );
      })}
    </div>
  );
}
