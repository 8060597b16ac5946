// llmobs completion bash|zsh|fish: the completion script, made from the command tree.
import type { Command } from 'commander';
import { complete, defineCommand } from './define.js';

export default defineCommand({
  name: 'completion',
  summary: 'print a shell completion script',
  args: [{ name: '<shell>', help: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] }],
  examples: [
    'mkdir -p ~/.local/share/bash-completion/completions && llmobs completion bash > ~/.local/share/bash-completion/completions/llmobs',
    'mkdir -p ~/.zfunc && llmobs completion zsh > ~/.zfunc/_llmobs',
    'mkdir -p ~/.config/fish/completions && llmobs completion fish > ~/.config/fish/completions/llmobs.fish',
  ],
  async run(ctx, { args, command }) {
    const { generate } = await import('../completion/generate.js');
    let root: Command = command;
    while (root.parent) root = root.parent;
    await complete(root, true);
    ctx.out.write(generate(args[0] as 'bash' | 'zsh' | 'fish', root));
  },
});
