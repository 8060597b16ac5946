// Tool definitions sent in an observation's metadata move into its input, as the service does
// before storing and tokenizing (extractToolsBackend.ts, normalizeToolMetadataForObservation):
// `metadata.tools`, and in `metadata.attributes` (OpenTelemetry spans) `ai.prompt.tools`,
// `gen_ai.tool.definitions`, `model_request_parameters.function_tools` and
// `llm.tools.<n>.tool.json_schema`. The input then carries them as `{messages, tools}`,
// `{...input, tools}` or `{prompt, tools}`.

import { metadataRecord, metadataStrings } from './metadata.js';

function parseIfString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name of a tool definition, flat ({name}) or nested ({type, function: {name}}). */
function toolName(tool: unknown): string | undefined {
  let t = tool;
  if (typeof t === 'string') {
    try {
      t = JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  if (!t || typeof t !== 'object') return undefined;
  const record = t as Record<string, unknown>;
  const data = (record['function'] as Record<string, unknown> | undefined) ?? record;
  return (data['name'] as string | undefined) || undefined;
}

function isToolEntry(tool: unknown, allowProviderTool: boolean): boolean {
  const parsed = parseIfString(tool);
  if (!isPlainRecord(parsed)) return false;
  if (toolName(parsed)) return true;
  return allowProviderTool && typeof parsed['type'] === 'string';
}

function parseArrayIfString(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The tool entries of a list ([] for an empty list); undefined when it holds none, or, with `every`, when any item is not one. */
function toolList(value: unknown, allowProviderTool: boolean, every = true): unknown[] | undefined {
  const list = parseArrayIfString(value);
  if (!list) return undefined;
  const items = list.map(parseIfString);
  if (items.length === 0) return [];
  const tools = items.filter((t) => isToolEntry(t, allowProviderTool));
  if (every && tools.length !== items.length) return undefined;
  return tools.length > 0 ? tools : undefined;
}

function dedupe(tools: unknown[]): unknown[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    const name = toolName(tool);
    if (!name) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

// A string of attributes is parsed only when it may hold one of the tool keys.
const TOOL_ATTRIBUTE_KEY = /"(?:ai\.prompt\.tools|gen_ai\.tool\.definitions|model_request_parameters|llm\.tools\.\d+\.tool\.json_schema)"\s*:/;

function attributesOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string' && !TOOL_ATTRIBUTE_KEY.test(value)) return undefined;
  const parsed = parseIfString(value);
  return isPlainRecord(parsed) ? parsed : undefined;
}

function collect(metadata: Record<string, unknown>): { tools: unknown[]; metadata: Record<string, unknown> } {
  let tools: unknown[] = [];
  const cleaned = { ...metadata };
  const fromMetadata = toolList(metadata['tools'], false);
  if (fromMetadata && fromMetadata.length > 0) {
    tools = tools.concat(fromMetadata);
    delete cleaned['tools'];
  }
  const attributes = attributesOf(metadata['attributes']);
  if (!attributes) return { tools: dedupe(tools), metadata: cleaned };

  const kept = { ...attributes };
  const take = (value: unknown, allowProviderTool: boolean): boolean => {
    const list = toolList(value, allowProviderTool);
    if (!list) return false;
    tools = tools.concat(list);
    return true;
  };
  if (take(attributes['ai.prompt.tools'], true)) delete kept['ai.prompt.tools'];
  if (take(attributes['gen_ai.tool.definitions'], false)) delete kept['gen_ai.tool.definitions'];
  const requestParameters = parseIfString(attributes['model_request_parameters']);
  if (isPlainRecord(requestParameters)) {
    const moved = take(requestParameters['function_tools'], false);
    const rest = { ...requestParameters };
    if (moved) delete rest['function_tools'];
    if (Object.keys(rest).length > 0) kept['model_request_parameters'] = typeof attributes['model_request_parameters'] === 'string' ? JSON.stringify(rest) : rest;
    else delete kept['model_request_parameters'];
  }
  const indexed = Object.keys(attributes)
    .map((key) => ({ key, match: /^llm\.tools\.(\d+)\.tool\.json_schema$/.exec(key) }))
    .filter((entry): entry is { key: string; match: RegExpExecArray } => entry.match !== null)
    .sort((a, b) => Number(a.match[1]) - Number(b.match[1]));
  for (const { key } of indexed) {
    const tool = parseIfString(attributes[key]);
    if (isToolEntry(tool, false)) {
      tools.push(tool);
      delete kept[key];
    }
  }
  if (Object.keys(kept).length > 0) cleaned['attributes'] = kept;
  else delete cleaned['attributes'];
  return { tools: dedupe(tools), metadata: cleaned };
}

/** The input with the tools added, or undefined when the input has no place for them. */
function withTools(input: unknown, tools: unknown[]): unknown | undefined {
  const merge = (value: unknown): unknown | undefined => {
    if (Array.isArray(value)) return { messages: value, tools };
    if (isPlainRecord(value)) {
      if (value['tools'] != null) {
        const existing = toolList(value['tools'], true, false);
        if (!existing) return undefined;
        return { ...value, tools: dedupe(existing.concat(tools)) };
      }
      return { ...value, tools };
    }
    if (value == null) return { tools };
    if (typeof value === 'string') return { prompt: value, tools };
    return undefined;
  };
  if (typeof input === 'string') {
    try {
      return merge(JSON.parse(input));
    } catch {
      return { prompt: input, tools };
    }
  }
  return merge(input);
}

/** Input and metadata as stored: tool definitions moved from the metadata into the input. */
export function moveToolDefinitions(input: unknown, metadata: unknown): { input: unknown; metadata: unknown } {
  // Only `tools` and `attributes` can hold tool definitions; most metadata has neither.
  if (isPlainRecord(metadata) && metadata['tools'] === undefined && metadata['attributes'] === undefined) return { input, metadata };
  const parsed = parseIfString(metadata);
  if (!isPlainRecord(parsed)) return { input, metadata };
  const { tools, metadata: cleaned } = collect(parsed);
  if (tools.length === 0) return { input, metadata };
  const mapped = withTools(input, tools);
  if (mapped === undefined) return { input, metadata };
  return { input: mapped, metadata: cleaned };
}

/**
 * One generation's input as the server stores and counts it: tool definitions from its metadata
 * (as the worker keeps metadata, a map of strings) moved in. `estimate` counts this input.
 */
export function inputWithToolDefinitions(input: unknown, metadata: unknown): unknown {
  if (!metadata) return input;
  return moveToolDefinitions(input, metadataStrings(metadataRecord(metadata))).input;
}
