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
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [list, get, create, update, remove, pull, status, push, match, lint];
