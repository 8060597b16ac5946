// llmobs profile use: make a profile the active one.
import { ProfileNotFoundError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'use',
  summary: 'make a profile the active one',
  args: [
    { name: '<profile>', help: 'profile name' },
  ],
  examples: [
    'llmobs profile use prod-us',
    '# One command with another profile, without switching',
    'llmobs --profile staging prompts list',
  ],
  async run(ctx, { args }) {
    const name = args[0] as string;
    const store = await ctx.profiles();
    if (!store.get(name)) {
      throw new ProfileNotFoundError(name, store.names());
    }
    store.setActive(name);
    if (ctx.globals.json) return ctx.out.printJson({ active: name });
    ctx.out.success(`Active profile is now "${name}"`);
  },
});
