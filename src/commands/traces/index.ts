// llmobs traces: its verbs, in the order of its help.
import get from './get.js';
import list from './list.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'traces',
  summary: 'read traces: one as a tree of its observations with totals, or a filtered list',
  examples: [
    'llmobs traces list --user user-42 --from 24h',
    'llmobs traces get 7f3c9a2e --io',
  ],
  commands: [get, list],
});
