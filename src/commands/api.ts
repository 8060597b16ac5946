// llmobs api [METHOD] PATH: any endpoint with the profile's credentials, retries and errors, shaped
// after `gh api`: the method defaults to GET, or POST when fields or a body are given.
import { ApiNotFoundError } from '../errors.js';
import { METHODS } from './api/methods.js';
import { defineCommand } from './define.js';

export default defineCommand({
  name: 'api',
  summary: "send a request to any API endpoint with the profile's credentials, retries and error handling",
  args: [
    { name: '<method-or-path>', help: 'endpoint path, e.g. /api/public/models or just models; or an HTTP method followed by the path' },
    { name: '[path]', help: 'endpoint path, when a method comes first' },
  ],
  flags: [
    {
      flags: '-X, --method <method>',
      help: 'the HTTP method, instead of the first argument',
      // In any case, as the first argument (upper-case choices are).
      choices: METHODS,
    },
    { flags: '-f, --field <key=value>', help: 'string parameter: query parameter for GET/HEAD/DELETE, JSON body field otherwise (repeatable)', repeatable: true },
    { flags: '-F, --typed-field <key=value>', help: 'like --field, but true/false/null/numbers/JSON are typed and @file reads a file (repeatable)', repeatable: true },
    { flags: '-H, --header <name:value>', help: 'add a request header (repeatable); values of credential headers are never printed', repeatable: true },
    { flags: '--input <file>', help: 'request body from a JSON file, or - for stdin (fields then go to the query string)' },
    { flags: '--paginate', help: "follow every page (meta.page/totalPages, or meta.cursor on cursor-paged routes) and print one array of every page's data" },
    { flags: '-i, --include', help: 'print the response status line and headers before the body' },
    { flags: '--silent', help: 'do not print the response body' },
    { flags: '--curl', help: 'print the request as a curl command (credentials as environment variables) and send nothing' },
  ],
  notes: `
  With one argument it is the path and the method is GET, or POST when -f, -F or
  --input are given.
  A prompt name with a "/" is one path segment: write it as %2F
  (team%2Fsummary).`,
  examples: [
    'llmobs api /api/public/models',
    "llmobs api models -X GET -f limit=5 --jq '.data[].modelName'",
    "llmobs api PATCH '/api/public/v2/prompts/team%2Fsummary/versions/3' -F 'newLabels=[\"production\"]'",
    'llmobs api POST models --input model.json',
    'llmobs api /api/public/v2/prompts --paginate --include',
    "llmobs api v2/observations -f traceId=abc123 --paginate --jq 'length'",
    '# The same request as a curl command (nothing is sent)',
    'llmobs api v2/prompts -X GET -f name=team/summary --curl',
  ],
  async run(ctx, { args, opts: raw }) {
    const [{ ApiOptions, buildRequest, methodAndPath }, { allPages }, render, { parseOptions }] = await Promise.all([import('./api/request.js'), import('../api/raw.js'), import('./api/render.js'), import('./options.js')]);
    const opts = parseOptions(ApiOptions, { ...raw, ...methodAndPath(args[0] as string, args[1] as string | undefined, raw.method as string | undefined) });
    const { verb, path, query, body, headers } = await buildRequest(ctx, opts);
    const client = await ctx.api();
    if (opts.curl) {
      ctx.out.line(render.curlCommand(client, verb, path, query, body, headers));
      ctx.out.hint(render.curlHint(client));
      return;
    }
    try {
      if (opts.paginate) {
        // With --include, each page's status line and headers, in order, before the one array of items.
        const heads: string[] = [];
        const items = await allPages(ctx, client, path, query, headers, (status, responseHeaders) => {
          if (opts.include) heads.push(render.statusAndHeaders(status, responseHeaders));
        });
        if (heads.length) ctx.out.writeHead(heads.join(''));
        if (!opts.silent) ctx.out.printJson(items);
        return;
      }
      const response = await client.request(verb, path, { query, body, headers });
      if (opts.include) ctx.out.writeHead(render.statusAndHeaders(response.status, response.headers));
      if (response.data !== undefined && !opts.silent) ctx.out.printJson(response.data);
    } catch (error) {
      if (error instanceof ApiNotFoundError) {
        const encoded = render.encodedPromptPath(path);
        if (encoded) error.hint = `A prompt name is one path segment: write "/" in it as %2F, e.g. llmobs api ${verb === 'GET' ? '' : `${verb} `}${encoded}`;
      }
      throw error;
    }
  },
});
