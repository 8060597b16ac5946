// llmobs labels: its verbs, in the order of its help.
import list from './list.js';
import set from './set.js';
import promote from './promote.js';
import remove from './remove.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'labels',
  aliases: ['label'],
  summary: 'see and move prompt labels (production, staging, ...): promotion and rollback without a deploy',
  examples: [
    'llmobs labels list support/agent',
    'llmobs labels promote support/agent --from staging --to production',
    'llmobs labels set support/agent production --version 3',
  ],
  commands: [list, set, promote, remove],
});
