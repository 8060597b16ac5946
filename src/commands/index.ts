// Every top-level command, in the order of the program's help.
import api from './api.js';
import completion from './completion.js';
import cost from './cost/index.js';
import doctor from './doctor.js';
import estimate from './estimate.js';
import health from './health.js';
import help from './help.js';
import labels from './labels/index.js';
import models from './models/index.js';
import observations from './observations/index.js';
import profile from './profile/index.js';
import projects from './projects.js';
import prompts from './prompts/index.js';
import server from './server.js';
import tokens from './tokens/index.js';
import traces from './traces/index.js';
import version from './version.js';
import whoami from './whoami.js';
import type { Definition } from './define.js';

export const COMMANDS: readonly Definition[] = [
  profile,
  models,
  prompts,
  labels,
  tokens,
  estimate,
  traces,
  observations,
  cost,
  health,
  projects,
  whoami,
  doctor,
  api,
  completion,
  server,
  help,
  version,
];
