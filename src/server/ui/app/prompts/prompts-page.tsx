// The prompts list, in folders by "/" in their names, as on Langfuse.
import { api } from '../api.js';
import { formatTime } from '../format.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';

interface PromptMeta {
  name: string;
  type: string;
  versions: number[];
  labels: string[];
  tags: string[];
  lastUpdatedAt: string;
}

async function allPrompts(): Promise<PromptMeta[]> {
  const prompts: PromptMeta[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get<{ data: PromptMeta[]; meta: { totalPages: number } }>('/api/public/v2/prompts', { page, limit: 100 });
    prompts.push(...answer.data);
    if (page >= answer.meta.totalPages || answer.data.length === 0) return prompts;
  }
}

export function PromptsPage({ folder }: { folder: string }) {
  const { data, error } = useData('prompts', allPrompts);
  const prefix = folder ? `${folder}/` : '';
  const inFolder = (data ?? []).filter((p) => p.name.startsWith(prefix));
  const folders = [...new Set(inFolder.map((p) => p.name.slice(prefix.length)).filter((rest) => rest.includes('/')).map((rest) => rest.split('/')[0]!))].sort();
  const prompts = inFolder.filter((p) => !p.name.slice(prefix.length).includes('/')).sort((a, b) => a.name.localeCompare(b.name));
  const crumbs = folder ? folder.split('/') : [];
  return (
    <section>
      <h1>Prompts</h1>
      <nav aria-label="Folder" class="crumbs">
        <a href={href(['prompts'])}>All prompts</a>
        {crumbs.map((part, i) => (
          <>
            {' / '}
            <a href={href(['prompts'], { folder: crumbs.slice(0, i + 1).join('/') })}>{part}</a>
          </>
        ))}
      </nav>
      {error ? <p role="alert">{error}</p> : null}
      <table class="grid" aria-label="Prompts">
        <thead>
          <tr>
            <th>Name</th>
            <th class="num">Versions</th>
            <th>Type</th>
            <th>Labels</th>
            <th>Tags</th>
            <th>Last updated</th>
          </tr>
        </thead>
        <tbody>
          {folders.map((name) => (
            <tr>
              <td>
                <a href={href(['prompts'], { folder: `${prefix}${name}` })}>📁 {name}/</a>
              </td>
              <td colSpan={5} />
            </tr>
          ))}
          {prompts.map((p) => (
            <tr>
              <td>
                <a href={href(['prompts', p.name])}>{p.name.slice(prefix.length)}</a>
              </td>
              <td class="num">{p.versions.length}</td>
              <td>{p.type}</td>
              <td>
                {p.labels.map((label) => (
                  <span class="tag">{label}</span>
                ))}
              </td>
              <td>
                {p.tags.map((tag) => (
                  <span class="tag">{tag}</span>
                ))}
              </td>
              <td>{formatTime(p.lastUpdatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && folders.length === 0 && prompts.length === 0 ? <p>No prompts here.</p> : null}
    </section>
  );
}
