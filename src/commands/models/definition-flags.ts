// The flags that describe a model definition, which create and update share (update's say what
// changes). Written out here rather than read from src/core, so that the help loads nothing heavy.
import type { FlagDefinition } from '../define.js';

const UNITS = ['TOKENS', 'CHARACTERS', 'MILLISECONDS', 'SECONDS', 'REQUESTS', 'IMAGES'];

export function definitionFlags(verb: 'create' | 'update'): FlagDefinition[] {
  const update = verb === 'update';
  return [
    { flags: '--name <name>', help: update ? 'new model name' : "model name (unique among the project's definitions; the same name as a built-in one overrides it)" },
    { flags: '--match-pattern <regex>', help: update ? 'new match pattern (Postgres regex)' : "Postgres regex matched against the generation's model name (default: (?i)^<name>$, the name in any case)" },
    { flags: '--tokenizer <tokenizer>', help: 'tokenizer for generations sent without usage (none: no tokenizer)', choices: ['openai', 'claude', 'none'] },
    { flags: '--tokenizer-model <model>', help: 'tiktoken model of the openai tokenizer, e.g. gpt-4o' },
    { flags: '--tokens-per-message <n>', help: 'tokens added per chat message (openai chat models, usually 3)' },
    { flags: '--tokens-per-name <n>', help: 'tokens added per message name (openai chat models, usually 1)' },
    { flags: '--tokenization-config <json>', help: 'the whole tokenizer config as JSON: tokenizerModel, tokensPerMessage, tokensPerName' },
    { flags: '--price <usage-type=usd>', help: 'price of a usage type in USD per unit, or per million with /1M: --price input=2.5/1M (repeatable; any usage type, e.g. input, output, input_cached_tokens)', repeatable: true },
    { flags: '--unit <unit>', help: update ? 'new unit' : 'unit of the usage counts (default: TOKENS)', choices: UNITS },
    { flags: '--start-date <date>', help: update ? 'new start date (ISO date or date-time; none removes it)' : 'ISO date or date-time; among matching definitions the latest start date wins' },
    {
      flags: '--file <file>',
      help: update
        ? 'the new definition from a JSON or YAML file (- for stdin); fields it leaves out are kept, flags override it'
        : "the definition from a JSON or YAML file (- for stdin), in the API shape or the spec's (name, match_pattern, tokenizer, tokenization_config, pricing); flags override it",
    },
    { flags: '--strict', help: 'refuse to send when the checks warn (not only when they find errors)' },
    { flags: '--dry-run', help: 'check and print the request body without sending it' },
  ];
}
