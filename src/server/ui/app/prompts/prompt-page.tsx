// One prompt: its versions with their labels, newest first and a page at a time (more on
// request, so a prompt of any number of versions opens as fast as a small one), a version's
// content as stored or resolved (for a prompt that composes others), the diff of two versions,
// and moving a label to a version with the guard of `llmobs labels set --expect-current`. The
// diff, the move and "Open a version" take any version's number, shown on the page or not.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { IoView } from '../parts/io-view.js';
import { JsonView } from '../parts/json-view.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';
import { Diff, MoveLabel } from './prompt-forms.js';
import type { LabelHolder, PromptVersion, VersionsPage } from './types.js';

interface Loaded {
  versions: PromptVersion[];
  nextCursor: string | null;
  total: number;
  labels: LabelHolder[];
  loading: boolean;
  error?: string;
}

const pageOf = (name: string, cursor?: string) => api.get<VersionsPage>('/ui/api/prompts/versions', { name, cursor });

/** The first page, then more until at least `shown` versions are loaded (a reload keeps the place). */
async function readVersions(name: string, shown: number): Promise<Omit<Loaded, 'loading'>> {
  const first = await pageOf(name);
  let { versions, nextCursor } = first;
  while (nextCursor && versions.length < shown) {
    const page = await pageOf(name, nextCursor);
    versions = [...versions, ...page.versions];
    nextCursor = page.nextCursor;
  }
  return { versions, nextCursor, total: first.total ?? versions.length, labels: first.labels ?? [] };
}

/**
 * The prompt's versions loaded so far, a way to load the next page, and one to read them again
 * (as many as are shown). The page is mounted anew for each prompt (main.tsx).
 */
function useVersions(name: string): [Loaded, () => void, () => void] {
  const [state, setState] = useState<Loaded>({ versions: [], nextCursor: null, total: 0, labels: [], loading: true });
  const [round, setRound] = useState(0);
  // An answer to a request made before the versions were read again is dropped.
  const generation = useRef(0);
  const shown = useRef(0);
  shown.current = state.versions.length;
  useEffect(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    readVersions(name, shown.current).then(
      (loaded) => mine === generation.current && setState({ ...loaded, loading: false }),
      (error: unknown) => mine === generation.current && setState((s) => ({ ...s, loading: false, error: error instanceof Error ? error.message : String(error) })),
    );
  }, [name, round]);
  const more = () => {
    if (!state.nextCursor || state.loading) return;
    const mine = generation.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    pageOf(name, state.nextCursor).then(
      (page) => mine === generation.current && setState((s) => ({ ...s, versions: [...s.versions, ...page.versions], nextCursor: page.nextCursor, loading: false })),
      (error: unknown) => mine === generation.current && setState((s) => ({ ...s, loading: false, error: error instanceof Error ? error.message : String(error) })),
    );
  };
  return [state, more, () => setRound((r) => r + 1)];
}

export function PromptPage({ name }: { name: string }) {
  const [loaded, loadMore, reload] = useVersions(name);
  const [selected, setSelected] = useState<number | null>(null);
  if (loaded.error && loaded.versions.length === 0) return <p role="alert">{loaded.error}</p>;
  if (loaded.loading && loaded.versions.length === 0) return <p aria-busy="true">Loading…</p>;
  const { versions } = loaded;
  const current = selected ?? versions[0]?.version;
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
                <tr aria-selected={v.version === current}>
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
          <MoreVersions loaded={loaded} onMore={loadMore} />
          {loaded.error ? <p role="alert">{loaded.error}</p> : null}
          <OpenVersion onOpen={setSelected} />
          <MoveLabel name={name} versions={versions} labels={loaded.labels} onMoved={reload} />
          <Diff name={name} versions={versions} />
        </div>
        <div>{current !== undefined ? <VersionView name={name} version={current} /> : null}</div>
      </div>
    </section>
  );
}

/** Says how many versions the table leaves out, and loads the next page of them. */
function MoreVersions({ loaded, onMore }: { loaded: Loaded; onMore: () => void }) {
  if (!loaded.nextCursor) return null;
  const shown = loaded.versions.length;
  const total = Math.max(loaded.total, shown);
  return (
    <p role="status" class="notice" data-testid="versions-notice">
      Showing the newest {shown.toLocaleString('en-US')} of {total.toLocaleString('en-US')} versions.{' '}
      <button type="button" onClick={onMore} disabled={loaded.loading}>
        {loaded.loading ? 'Loading…' : 'Load more versions'}
      </button>
    </p>
  );
}

/** Shows any version's content by its number, loaded in the table or not. */
function OpenVersion({ onOpen }: { onOpen: (version: number) => void }) {
  const [version, setVersion] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    onOpen(Number(version));
  };
  return (
    <form class="toolbar" aria-label="Open a version" onSubmit={submit}>
      <label>
        Version
        <input type="number" min="1" step="1" required aria-label="Version to open" value={version} onInput={(e) => setVersion((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit">Open</button>
    </form>
  );
}

/** One version's content from the API: resolved, or as stored (references left as written). */
function VersionView({ name, version }: { name: string; version: number }) {
  const [resolved, setResolved] = useState(true);
  const { data, error } = useData(`${name}@${version}:${resolved}`, () =>
    api.get<PromptVersion>(`/api/public/v2/prompts/${encodeURIComponent(name)}`, { version, resolve: resolved ? undefined : 'false' }),
  );
  return (
    <section aria-label={`Version ${version}`}>
      <h2>Version {version}</h2>
      <div role="radiogroup" aria-label="Content" class="toolbar">
        <label class="toggle">
          <input type="radio" name="view" checked={resolved} onChange={() => setResolved(true)} /> Resolved
        </label>
        <label class="toggle">
          <input type="radio" name="view" checked={!resolved} onChange={() => setResolved(false)} /> As stored (references unresolved)
        </label>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {data && data.version === version ? (
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
