#!/usr/bin/env node
import { run } from '../dist/cli.js';

// A reader that stops early (`llmobs prompts list | head`) closes the pipe: that is not an error,
// so stop quietly instead of crashing with an unhandled EPIPE.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2));
