// llmobs prompts: its verbs, in the order of its help.
import create from './create.js';
import get from './get.js';
import list from './list.js';
import versions from './versions.js';
import compile from './compile.js';
import diff from './diff.js';
import pull from './pull.js';
import status from './status.js';
import push from './push.js';
import copy from './copy.js';
import remove from './delete.js';
import type { CommandDefinition } from '../define.js';

export const VERBS: readonly CommandDefinition[] = [create, get, list, versions, compile, diff, pull, status, push, copy, remove];
