import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/cli.js';

afterAll(() => removeTempDirs());
