import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir } from '../../../src/config/dir.js';

describe('configDir', () => {
  it('takes LLMOBS_CONFIG_DIR, then XDG_CONFIG_HOME, then HOME, then the account\'s home directory', () => {
    expect(configDir({ LLMOBS_CONFIG_DIR: '/a', XDG_CONFIG_HOME: '/b', HOME: '/c' })).toBe('/a');
    expect(configDir({ XDG_CONFIG_HOME: '/b', HOME: '/c' })).toBe(join('/b', 'llmobs'));
    expect(configDir({ HOME: '/c' })).toBe(join('/c', '.config', 'llmobs'));
    expect(configDir({})).toBe(join(homedir(), '.config', 'llmobs'));
  });
});
