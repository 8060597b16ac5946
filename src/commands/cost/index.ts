// llmobs cost: its verbs, in the order of its help.
import report from './report.js';
import recompute from './recompute.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'cost',
  summary: 'what the project spent (from the Metrics API), and what past generations cost under other prices',
  examples: [
    'llmobs cost report --month last --by model',
    'llmobs cost recompute --input may.jsonl --models-file new-prices.yaml',
  ],
  commands: [report, recompute],
});
