// The web UI of llmobs server: traces, model definitions, prompts, cost.
import { render } from 'preact';
import { href, useLocation } from './router.js';
import { TracesPage } from './traces/traces-page.js';
import { TracePage } from './traces/trace-page.js';
import { ModelPage } from './models/model-page.js';
import { ModelsPage } from './models/models-page.js';
import { PromptPage } from './prompts/prompt-page.js';
import { PromptsPage } from './prompts/prompts-page.js';
import { CostPage } from './cost/cost-page.js';
import { ObservationsPage } from './observations/observations-page.js';
import './style.css';

const SECTIONS = [
  { id: 'traces', name: 'Traces' },
  { id: 'observations', name: 'Observations' },
  { id: 'models', name: 'Model Definitions' },
  { id: 'prompts', name: 'Prompts' },
  { id: 'cost', name: 'Cost' },
];

function App() {
  const location = useLocation();
  const [section = 'traces', id] = location.path;
  return (
    <>
      <header class="top">
        <span class="brand">llmobs</span>
        <nav aria-label="Sections">
          {SECTIONS.map((s) => (
            <a href={href([s.id])} aria-current={s.id === section ? 'page' : undefined}>
              {s.name}
            </a>
          ))}
        </nav>
      </header>
      <main>{page(section, id, location.query)}</main>
    </>
  );
}

function page(section: string, id: string | undefined, query: URLSearchParams) {
  if (section === 'traces') return id ? <TracePage id={id} /> : <TracesPage query={query} />;
  if (section === 'models') return id ? <ModelPage id={id} /> : <ModelsPage />;
  if (section === 'prompts') return id ? <PromptPage key={id} name={id} /> : <PromptsPage folder={query.get('folder') ?? ''} />;
  if (section === 'observations') return <ObservationsPage query={query} />;
  if (section === 'cost') return <CostPage query={query} />;
  return <p>Not found.</p>;
}

render(<App />, document.getElementById('app')!);
