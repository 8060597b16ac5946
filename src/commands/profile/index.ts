// llmobs profile: its verbs, in the order of its help.
import add from './add.js';
import list from './list.js';
import show from './show.js';
import use from './use.js';
import remove from './remove.js';
import test from './test.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [add, list, show, use, remove, test];
