// The prompt page's two forms: moving a label, and the diff of two versions. Each takes any
// version's number (the versions the table shows are offered), since the table shows a page of
// them; the server answers for versions that do not exist.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { LabelHolder, PromptVersion } from './types.js';

/** The versions the table shows, offered to a version's field. */
function VersionChoices({ id, versions }: { id: string; versions: PromptVersion[] }) {
  return (
    <datalist id={id}>
      {versions.map((v) => (
        <option value={String(v.version)} />
      ))}
    </datalist>
  );
}

function VersionField({ label, value, onValue, list }: { label: string; value: string; onValue: (value: string) => void; list: string }) {
  return <input type="number" min="1" step="1" required aria-label={label} list={list} value={value} onInput={(e) => onValue((e.target as HTMLInputElement).value)} />;
}

/** `labels`: every label's version, from the server, whichever versions the table shows. */
export function MoveLabel({ name, versions, labels, onMoved }: { name: string; versions: PromptVersion[]; labels: LabelHolder[]; onMoved: () => void }) {
  const [label, setLabel] = useState('');
  const [target, setTarget] = useState(String(versions[0]?.version ?? ''));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // The version the label is on as this page read it: the server refuses if it moved since.
  const holder = labels.find((l) => l.label === label.trim())?.version ?? null;
  const names = labels.map((l) => l.label).filter((l) => l !== 'latest');

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
            {names.map((l) => (
              <option value={l} />
            ))}
          </datalist>
        </label>
        <label>
          To version
          <VersionField label="To version" value={target} onValue={setTarget} list="move-versions" />
          <VersionChoices id="move-versions" versions={versions} />
        </label>
        <button type="submit">Move label</button>
      </div>
      <p class="muted">{label.trim() ? (holder === null ? `"${label.trim()}" is on no version now.` : `"${label.trim()}" is on version ${holder} now.`) : ' '}</p>
      {message ? <p role={message.ok ? 'status' : 'alert'}>{message.text}</p> : null}
    </form>
  );
}

export function Diff({ name, versions }: { name: string; versions: PromptVersion[] }) {
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
      setDiff(null);
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <form class="panel" aria-label="Compare versions" onSubmit={submit}>
      <h3>Compare versions</h3>
      <div class="form-grid">
        <label>
          From version
          <VersionField label="From version" value={from} onValue={setFrom} list="diff-versions" />
        </label>
        <label>
          To version
          <VersionField label="Compare to version" value={to} onValue={setTo} list="diff-versions" />
        </label>
        <VersionChoices id="diff-versions" versions={versions} />
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
