// "Test model match": which definition and pricing tier a generation would get, and its cost,
// from the same core as `llmobs models match` and `llmobs estimate`.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatCost } from '../format.js';
import { UsageTable, usageTypes } from '../parts/usage-table.js';
import { href } from '../router.js';

interface MatchAnswer {
  match: {
    matched: boolean;
    winner: { id: string; modelName: string; matchPattern: string; source: string } | null;
    why: string | null;
    losers: Array<{ id: string; modelName: string; explanation: string }>;
    suggestions?: string[];
  };
  pricingTier: { id: string; name: string; isDefault: boolean } | null;
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  totalCost: number | null;
  warnings: Array<{ code: string; message: string }>;
}

function jsonObject(text: string, what: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what}: a JSON object, e.g. {"key": "value"}`);
  return value as Record<string, unknown>;
}

export function TestMatch({ onClose }: { onClose: () => void }) {
  const [model, setModel] = useState('');
  const [usage, setUsage] = useState('{"input": 1000, "output": 500}');
  const [modelParameters, setModelParameters] = useState('');
  const [metadata, setMetadata] = useState('');
  const [answer, setAnswer] = useState<MatchAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    try {
      const body = { model, usage: jsonObject(usage, 'Usage details'), modelParameters: jsonObject(modelParameters, 'Model parameters'), metadata: jsonObject(metadata, 'Metadata') };
      setAnswer(await api.post<MatchAnswer>('/ui/api/models/match', body));
    } catch (e) {
      setAnswer(null);
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <form class="panel" aria-label="Test model match" onSubmit={submit}>
      <h2>Test model match</h2>
      <p class="muted">Test which model and pricing tier your ingestion data would match against.</p>
      <div class="form-grid">
        <label>
          Model name
          <input required value={model} placeholder="gpt-4-turbo" onInput={(e) => setModel((e.target as HTMLInputElement).value)} />
        </label>
      </div>
      <label class="wide">
        Usage details (JSON)
        <textarea value={usage} onInput={(e) => setUsage((e.target as HTMLTextAreaElement).value)} />
      </label>
      <label class="wide">
        Model parameters (JSON, top-level keys)
        <textarea value={modelParameters} onInput={(e) => setModelParameters((e.target as HTMLTextAreaElement).value)} />
      </label>
      <label class="wide">
        Metadata (JSON, top-level keys)
        <textarea value={metadata} onInput={(e) => setMetadata((e.target as HTMLTextAreaElement).value)} />
      </label>
      <p>
        <button type="submit" class="primary">
          Test
        </button>{' '}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
      {answer ? <MatchResult answer={answer} /> : null}
    </form>
  );
}

function MatchResult({ answer }: { answer: MatchAnswer }) {
  const { match } = answer;
  if (!match.matched || !match.winner) {
    return (
      <section role="region" aria-label="Match result">
        <h3>No match</h3>
        <ul>
          <li>Check your model name spelling{match.suggestions?.length ? ` (did you mean ${match.suggestions.join(', ')}?)` : ''}</li>
          <li>View existing models and their match patterns</li>
          <li>Create a new model definition</li>
        </ul>
      </section>
    );
  }
  return (
    <section role="region" aria-label="Match result">
      <h3>Match found</h3>
      <dl class="facts">
        <dt>Model definition</dt>
        <dd>
          <a href={href(['models', match.winner.id])}>{match.winner.modelName}</a> ({match.winner.source === 'custom' ? 'User' : 'Langfuse'} maintained)
        </dd>
        <dt>Match pattern</dt>
        <dd class="mono">{match.winner.matchPattern}</dd>
        <dt>Why</dt>
        <dd>{match.why}</dd>
        <dt>Pricing tier</dt>
        <dd data-testid="matched-tier">{answer.pricingTier?.name ?? 'none'}</dd>
        <dt>Total cost</dt>
        <dd data-testid="matched-cost">{formatCost(answer.totalCost)}</dd>
      </dl>
      {usageTypes(answer.usageDetails, answer.costDetails).length > 0 ? (
        <UsageTable usage={answer.usageDetails} cost={answer.costDetails} />
      ) : null}
      {match.losers.length > 0 ? (
        <>
          <h4>Also match</h4>
          <ul>
            {match.losers.map((l) => (
              <li>
                {l.modelName}: {l.explanation}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {answer.warnings.map((w) => (
        <p class="muted">{w.message}</p>
      ))}
    </section>
  );
}
