import { readFileSync } from 'node:fs';

// The bundle has the version written in at build time (scripts/build.mjs); run from the sources
// (tests), it is read from package.json.
declare const LLMOBS_BUILD_VERSION: string | undefined;

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const VERSION = typeof LLMOBS_BUILD_VERSION === 'string' ? LLMOBS_BUILD_VERSION : readVersion();
