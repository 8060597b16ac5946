// llmobs projects: the project the credentials belong to.
import { defineCommand } from './define.js';

export default defineCommand({
  name: 'projects',
  summary: 'show the project the credentials belong to',
  examples: ['llmobs projects', "llmobs projects --profile prod-us --jq '.[0].id'"],
  async run(ctx) {
    const { getProjects } = await import('../api/projects.js');
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
  },
});
