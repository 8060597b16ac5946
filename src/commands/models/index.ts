// llmobs models: its verbs, in the order of its help.
import list from './list.js';
import get from './get.js';
import create from './create.js';
import update from './update.js';
import remove from './delete.js';
import pull from './pull.js';
import status from './status.js';
import push from './push.js';
import match from './match.js';
import lint from './lint.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'models',
  summary: 'model definitions: list, inspect, create, update and delete them, or keep them in a file (pull, status, push); see what a model name matches and what it costs',
  examples: [
    'llmobs models list --custom',
    'llmobs models match gpt-4o-2024-08-06',
    'llmobs models create --name my-model --price input=2.5/1M --price output=10/1M',
  ],
  commands: [list, get, create, update, remove, pull, status, push, match, lint],
});
