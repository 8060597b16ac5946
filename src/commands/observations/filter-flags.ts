// The flags of the commands that read observations (observations list and export, cost
// recompute): the v2 API's filters. A verb's file lists them in its help; ./filters.ts checks
// their values when the command runs.
import type { FlagDefinition } from '../define.js';

export const OBSERVATION_TYPES = ['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL'] as const;
export const LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'] as const;

/** The forms a time flag takes, as the help says them. */
export const TIME_FORMS = 'ISO time with Z or offset, a date (midnight UTC), 30m/24h/7d/2w ago, or now';

export const observationFilterFlags: readonly FlagDefinition[] = [
  { flags: '--type <type>', help: 'only this observation type', choices: OBSERVATION_TYPES },
  { flags: '--name <name>', help: 'only observations with this name' },
  { flags: '--trace <id>', help: 'only the observations of this trace' },
  { flags: '--user <id>', help: 'only observations of this user' },
  { flags: '--session <id>', help: 'only observations of this session' },
  { flags: '--environment <env>', help: 'only this environment (repeatable)', repeatable: true },
  { flags: '--level <level>', help: 'only this level', choices: LEVELS },
  { flags: '--version <version>', help: 'only observations with this version' },
  { flags: '--from <time>', help: `start time on or after this (${TIME_FORMS})` },
  { flags: '--to <time>', help: 'start time before this (same forms)' },
];
