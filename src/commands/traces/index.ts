// llmobs traces: its verbs, in the order of its help.
import get from './get.js';
import list from './list.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [get, list];
