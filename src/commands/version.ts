import type { Context } from '../context.js';
import { VERSION } from '../version.js';
import type { ActionInput } from './action.js';

export default async function action(ctx: Context, _input: ActionInput): Promise<void> {
  const info = { version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` };
  if (ctx.globals.json) return ctx.out.printJson(info);
  ctx.out.line(`llmobs ${info.version} (node ${info.node}, ${info.platform})`);
}
