import { getProjects } from '../api/projects.js';
import type { Context } from '../context.js';

export default async function action(ctx: Context): Promise<void> {
  const { projects } = await getProjects(await ctx.api());
  if (ctx.globals.json) return ctx.out.printJson(projects);
  if (projects.length === 0) {
    ctx.out.info('No project is visible with these credentials.');
    return;
  }
  ctx.out.table(
    [{ header: 'ID' }, { header: 'NAME', style: (text, c) => c.bold(text) }, { header: 'ORGANIZATION' }, { header: 'RETENTION' }],
    projects.map((project) => [
      project.id,
      project.name,
      project.organization ? `${project.organization.name} (${project.organization.id})` : '',
      project.retentionDays ? `${project.retentionDays} days` : 'unlimited',
    ]),
  );
}
