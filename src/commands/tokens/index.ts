// llmobs tokens: its verbs, in the order of its help.
import count from './count.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [count];
