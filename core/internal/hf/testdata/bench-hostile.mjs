// tokenizers.js on the hostile tokenizer.json files package hf's
// TestBenchReport_Hostile writes: node bench-hostile.mjs HF_DIR
// VOCAB.json TOKEN.json TEXT_BYTES. Prints one JSON line: the time to load
// VOCAB.json (JSON.parse and new Tokenizer, best of three), and the time to
// count TEXT_BYTES of "a" with TOKEN.json (once: it is quadratic).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, vocabFile, tokenFile, textBytes] = process.argv.slice(2);
const { Tokenizer } = await import(pathToFileURL(join(dir, 'node_modules/@huggingface/tokenizers/dist/tokenizers.mjs')));
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
// tokenizers.js wants every part named, as a saved tokenizer.json has them.
const tokenizer = (json) => new Tokenizer({ normalizer: null, post_processor: null, decoder: null, added_tokens: [], ...json }, {});

let loadMs = Infinity;
for (let i = 0; i < 3; i++) {
  const t0 = process.hrtime.bigint();
  tokenizer(JSON.parse(readFileSync(vocabFile, 'utf8')));
  loadMs = Math.min(loadMs, ms(t0));
}
const tok = tokenizer(JSON.parse(readFileSync(tokenFile, 'utf8')));
const text = 'a'.repeat(Number(textBytes));
const t0 = process.hrtime.bigint();
const tokens = tok.encode(text, { add_special_tokens: false }).ids.length;
console.log(JSON.stringify({ loadMs, countMs: ms(t0), tokens }));
