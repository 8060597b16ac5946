// llmobs observations: its verbs, in the order of its help.
import list from './list.js';
import exportCommand from './export.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [list, exportCommand];
