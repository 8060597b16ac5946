#!/usr/bin/env node
// The llmobs command. Node 22.1 and later keep V8's compiled code of dist/ between runs in Node's
// own compile cache (NODE_COMPILE_CACHE chooses its folder, NODE_DISABLE_COMPILE_CACHE=1 turns it
// off); Node 20 compiles every time.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli.mjs');
await main(process.argv.slice(2));
