// llmobs labels: its verbs, in the order of its help.
import list from './list.js';
import set from './set.js';
import promote from './promote.js';
import remove from './remove.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [list, set, promote, remove];
