// llmobs cost: its verbs, in the order of its help.
import report from './report.js';
import recompute from './recompute.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [report, recompute];
