// Shared by `whoami` and `profile test`: who the credentials are, checked against the server.
import { getProjects } from '../api/projects.js';
import type { Project } from '../api/schemas/projects.js';
import { maskKey } from '../config/mask.js';
import { type ResolvedConfig, sourceText } from '../config/resolve.js';
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';

export interface Identity {
  profile: string | null;
  /** Where the credentials come from: `profile "x"`, or the environment variables. */
  credentialsFrom: string | null;
  baseUrl: string;
  baseUrlFrom: string;
  auth: 'basic' | 'bearer' | 'none';
  publicKey: string | null;
  project: { id: string; name: string } | null;
  organization: { id: string; name: string } | null;
  roundTripMs: number;
  /** Settings that were present but not used. */
  notes: string[];
}

export async function whoAmI(ctx: Context, config: ResolvedConfig): Promise<Identity> {
  const client = await ctx.apiFor(config);
  const { projects, durationMs } = await getProjects(client);
  const project: Project | undefined = projects[0];
  if (!project) {
    throw new ApiError('the server returned no project for these credentials', {
      status: 200,
      method: 'GET',
      path: '/api/public/projects',
      hint: 'Project commands need a project API key; create one in the project settings.',
    });
  }
  return {
    profile: config.profile?.name ?? null,
    credentialsFrom: config.credentialsFrom ?? null,
    baseUrl: config.baseUrl,
    baseUrlFrom: sourceText(config.baseUrlSource),
    auth: config.auth.type,
    publicKey: config.auth.type === 'basic' ? maskKey(config.auth.publicKey) : config.auth.type === 'bearer' ? maskKey(config.auth.apiKey) : null,
    project: { id: project.id, name: project.name },
    organization: project.organization ? { id: project.organization.id, name: project.organization.name } : null,
    roundTripMs: durationMs,
    notes: config.notes,
  };
}

export function printIdentity(ctx: Context, identity: Identity, mode: 'whoami' | 'test'): void {
  if (ctx.globals.json) {
    ctx.out.printJson({ ok: true, ...identity });
    return;
  }
  if (mode === 'test') ctx.out.success(`Credentials accepted by ${identity.baseUrl} in ${identity.roundTripMs} ms`);
  ctx.out.keyValues([
    ['Profile', identity.profile ?? ctx.out.c.dim('none')],
    ['Server', `${identity.baseUrl}  ${ctx.out.c.dim(`(${identity.baseUrlFrom})`)}`],
    ['Project', identity.project ? `${identity.project.name}  ${ctx.out.c.dim(identity.project.id)}` : null],
    ['Organization', identity.organization ? `${identity.organization.name}  ${ctx.out.c.dim(identity.organization.id)}` : null],
    ['Key', `${identity.publicKey ?? ''} (${identity.auth})  ${ctx.out.c.dim(`(${identity.credentialsFrom ?? 'none'})`)}`],
    ['Round trip', `${identity.roundTripMs} ms`],
  ]);
  for (const note of identity.notes) ctx.out.hint(`note: ${note}`);
}
