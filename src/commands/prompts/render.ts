// How `prompts get` shows one version on a terminal: its details, then its content.
import { type Prompt, ResolutionGraphSchema } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { templateNames } from '../../core/prompts/analyze.js';
import { describeReferencedVersions } from '../../core/prompts/references.js';
import { isPlaceholder, type PromptContent } from '../../core/prompts/types.js';

/** `prompts get`: the version's details, then its content, a chat prompt message by message. */
export function printPromptDetails(ctx: Context, prompt: Prompt, content: PromptContent): void {
  const { variables, placeholders } = templateNames(content);
  const pairs: Array<readonly [string, string | number]> = [
    ['Name', prompt.name],
    ['Version', prompt.version],
    ['Type', prompt.type],
    ['Labels', prompt.labels.join(', ')],
    ['Tags', prompt.tags.join(', ')],
    ['Commit message', prompt.commitMessage ?? ''],
    ['Created', [prompt.createdAt, prompt.createdBy ? `by ${prompt.createdBy}` : ''].filter(Boolean).join(' ')],
    ['Config', JSON.stringify(prompt.config ?? {})],
  ];
  const graph = ResolutionGraphSchema.safeParse(prompt.resolutionGraph);
  if (graph.success) pairs.push(['References', describeReferencedVersions(graph.data)]);
  pairs.push(['Variables', variables.join(', ')]);
  if (content.type === 'chat') pairs.push(['Placeholders', placeholders.join(', ')]);
  ctx.out.keyValues(pairs);
  ctx.out.line();
  // A display, not the content itself (that is --raw): every block ends its line.
  const block = (text: string) => ctx.out.write(text.endsWith('\n') ? text : `${text}\n`);
  if (content.type === 'text') {
    block(content.prompt);
    return;
  }
  content.prompt.forEach((item, index) => {
    if (index > 0) ctx.out.line();
    if (isPlaceholder(item)) ctx.out.heading(`[placeholder: ${item.name}]`);
    else {
      ctx.out.heading(`[${item.role}]`);
      block(item.content);
    }
  });
}
