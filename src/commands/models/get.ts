import type { Context } from '../../context.js';
import type { ActionInput } from '../action.js';
import { printDefinition } from './render.js';
import { resolveModel } from './resolve.js';

export default async function action(ctx: Context, { args }: ActionInput): Promise<void> {
  const client = await ctx.api();
  const { model } = await resolveModel(client, String(args[0]));
  if (ctx.globals.json) return ctx.out.printJson(model);
  printDefinition(ctx, model);
}
