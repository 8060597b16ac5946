// llmobs observations: its verbs, in the order of its help.
import list from './list.js';
import exportCommand from './export.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'observations',
  summary: 'observations (spans, generations, events ...) through the v2 API: list them, or export them to a file that survives interruption',
  examples: [
    'llmobs observations list --type GENERATION --level ERROR',
    'llmobs observations export --from 2026-05-01 --to 2026-06-01 --output may.jsonl',
  ],
  commands: [list, exportCommand],
});
