// llmobs profile: its verbs, in the order of its help.
import add from './add.js';
import list from './list.js';
import show from './show.js';
import use from './use.js';
import remove from './remove.js';
import test from './test.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'profile',
  summary: 'manage connection profiles (server, region and keys), stored in a 0600 file',
  examples: [
    'llmobs profile add prod-us --region us',
    'llmobs profile use prod-us',
    'llmobs profile show',
  ],
  commands: [add, list, show, use, remove, test],
});
