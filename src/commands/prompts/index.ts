// llmobs prompts: its verbs, in the order of its help.
import create from './create.js';
import get from './get.js';
import list from './list.js';
import versions from './versions.js';
import compile from './compile.js';
import diff from './diff.js';
import pull from './pull.js';
import status from './status.js';
import push from './push.js';
import copy from './copy.js';
import remove from './delete.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'prompts',
  aliases: ['prompt'],
  summary: 'manage prompts: create versions, fetch, list, compile, diff and delete; keep them in git with pull, status and push; copy them between projects. Names may contain folders (team/app/summary)',
  examples: [
    'llmobs prompts create support/greeting --text \'Hello {{name}}\' --label staging',
    'llmobs prompts get support/greeting --label staging',
    'llmobs prompts diff support/greeting production staging',
  ],
  commands: [create, get, list, versions, compile, diff, pull, status, push, copy, remove],
});
