// llmobs export: its verbs, in the order of its help.
import blob from './blob.js';
import integration from './integration.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [blob, integration];
