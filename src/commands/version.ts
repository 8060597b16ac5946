// llmobs version: the version of llmobs and of Node.js.
import { VERSION } from '../version.js';
import { defineCommand } from './define.js';

export default defineCommand({
  name: 'version',
  summary: 'print the version of llmobs and of Node.js',
  examples: ['llmobs version', 'llmobs version --json'],
  async run(ctx) {
    const info = { version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` };
    if (ctx.globals.json) return ctx.out.printJson(info);
    ctx.out.line(`llmobs ${info.version} (node ${info.node}, ${info.platform})`);
  },
});
