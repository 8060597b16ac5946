#!/usr/bin/env node
// CommonJS, as is dist/cli.cjs: on Node 20 an ES module entry would start the ES module loader,
// a fifth of a bare node start (see scripts/build.mjs).
'use strict';
const { run } = require('../dist/cli.cjs');

// A reader that stops early (`llmobs prompts list | head`) closes the pipe: that is not an error,
// so stop quietly instead of crashing with an unhandled EPIPE.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
