// llmobs tokens: its verbs, in the order of its help.
import count from './count.js';
import { defineGroup } from '../define.js';

export default defineGroup({
  name: 'tokens',
  summary: 'count tokens offline with the tokenizers the server uses',
  examples: [
    'llmobs tokens count \'Hello, world\'',
    'llmobs tokens count --file prompt.txt --model gpt-4o',
  ],
  commands: [count],
});
