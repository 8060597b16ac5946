// One prompt: its versions with their labels, a version's content as stored or resolved (for a
// prompt that composes others), the diff of two versions, and moving a label to a version with
// the guard of `llmobs labels set --expect-current`.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { IoView } from '../parts/io-view.js';
import { JsonView } from '../parts/json-view.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';

export interface PromptVersion {
  name: string;
  version: number;
  labels: string[];
  type: 'text' | 'chat';
  prompt: unknown;
  config: unknown;
  commitMessage?: string | null;
  createdAt?: string;
}

export function PromptPage({ name }: { name: string }) {
  const { data, error, reload } = useData(name, () => api.get<{ name: string; versions: PromptVersion[] }>('/ui/api/prompts/versions', { name }));
  const [selected, setSelected] = useState<number | null>(null);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const versions = data.versions;
  const current = versions.find((v) => v.version === selected) ?? versions[0];
  const folder = name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : undefined;
  return (
    <section>
      <p>
        <a href={href(['prompts'], { folder })}>← Prompts</a>
      </p>
      <h1>{name}</h1>
      <div class="trace-layout">
        <div>
          <h2>Versions</h2>
          <table class="grid" aria-label="Versions">
            <thead>
              <tr>
                <th>Version</th>
                <th>Labels</th>
                <th>Commit message</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr aria-selected={v.version === current?.version}>
                  <td>
                    <button type="button" onClick={() => setSelected(v.version)}>
                      Version {v.version}
                    </button>
                  </td>
                  <td>
                    {v.labels.map((label) => (
                      <span class="tag">{label}</span>
                    ))}
                  </td>
                  <td>{v.commitMessage ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <MoveLabel name={name} versions={versions} onMoved={reload} />
          <Diff name={name} versions={versions} />
        </div>
        <div>{current ? <VersionView name={name} version={current} /> : null}</div>
      </div>
    </section>
  );
}

function VersionView({ name, version }: { name: string; version: PromptVersion }) {
  const [resolved, setResolved] = useState(true);
  const { data, error } = useData(`${name}@${version.version}:${resolved}`, () =>
    resolved ? api.get<PromptVersion>(`/api/public/v2/prompts/${encodeURIComponent(name)}`, { version: version.version }) : Promise.resolve(version),
  );
  return (
    <section aria-label={`Version ${version.version}`}>
      <h2>Version {version.version}</h2>
      <div role="radiogroup" aria-label="Content" class="toolbar">
        <label class="toggle">
          <input type="radio" name="view" checked={resolved} onChange={() => setResolved(true)} /> Resolved
        </label>
        <label class="toggle">
          <input type="radio" name="view" checked={!resolved} onChange={() => setResolved(false)} /> As stored (references unresolved)
        </label>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <>
          <IoView title="Prompt" value={data.prompt} />
          {data.config && Object.keys(data.config).length > 0 ? (
            <section aria-label="Config">
              <h4>Config</h4>
              <JsonView value={data.config} />
            </section>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function MoveLabel({ name, versions, onMoved }: { name: string; versions: PromptVersion[]; onMoved: () => void }) {
  const [label, setLabel] = useState('');
  const [target, setTarget] = useState(String(versions[0]?.version ?? ''));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // The version the label is on as this page shows it: the server refuses if it moved since.
  const holder = versions.find((v) => v.labels.includes(label.trim()))?.version ?? null;
  const labels = [...new Set(versions.flatMap((v) => v.labels))].filter((l) => l !== 'latest').sort();

  const submit = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    try {
      const moved = await api.post<{ previousVersion: number | null; version: number; noop: boolean }>('/ui/api/prompts/labels', { name, label: label.trim(), version: Number(target), expectCurrent: holder });
      setMessage({ ok: true, text: moved.noop ? `"${label.trim()}" is already on version ${moved.version}.` : `Moved "${label.trim()}" to version ${moved.version}${moved.previousVersion === null ? '' : ` (from version ${moved.previousVersion})`}.` });
      onMoved();
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) });
      onMoved();
    }
  };

  return (
    <form class="panel" aria-label="Move a label" onSubmit={submit}>
      <h3>Move a label</h3>
      <div class="form-grid">
        <label>
          Label
          <input required list="prompt-labels" value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
          <datalist id="prompt-labels">
            {labels.map((l) => (
              <option value={l} />
            ))}
          </datalist>
        </label>
        <label>
          To version
          <select aria-label="To version" value={target} onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}>
            {versions.map((v) => (
              <option value={String(v.version)}>{v.version}</option>
            ))}
          </select>
        </label>
        <button type="submit">Move label</button>
      </div>
      <p class="muted">{label.trim() ? (holder === null ? `"${label.trim()}" is on no version now.` : `"${label.trim()}" is on version ${holder} now.`) : ' '}</p>
      {message ? <p role={message.ok ? 'status' : 'alert'}>{message.text}</p> : null}
    </form>
  );
}

function Diff({ name, versions }: { name: string; versions: PromptVersion[] }) {
  const [from, setFrom] = useState(String(versions[1]?.version ?? versions[0]?.version ?? ''));
  const [to, setTo] = useState(String(versions[0]?.version ?? ''));
  const [diff, setDiff] = useState<{ content: string; config: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    try {
      setDiff(await api.get('/ui/api/prompts/diff', { name, from, to }));
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  const options = versions.map((v) => <option value={String(v.version)}>{v.version}</option>);
  return (
    <form class="panel" aria-label="Compare versions" onSubmit={submit}>
      <h3>Compare versions</h3>
      <div class="form-grid">
        <label>
          From version
          <select aria-label="From version" value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
            {options}
          </select>
        </label>
        <label>
          To version
          <select aria-label="Compare to version" value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
            {options}
          </select>
        </label>
        <button type="submit">Show diff</button>
      </div>
      {problem ? <p role="alert">{problem}</p> : null}
      {diff ? (
        <section class="diff" aria-label="Diff">
          {diff.content === '' && diff.config === '' ? <p>The two versions are the same.</p> : null}
          {[diff.content, diff.config].filter(Boolean).map((text) => (
            <pre>
              {text.split('\n').map((line, i) => (
                // The first two lines name the sides; after them a leading + or - marks a change.
                <div class={i < 2 ? '' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : ''}>{line}</div>
              ))}
            </pre>
          ))}
        </section>
      ) : null}
    </form>
  );
}
