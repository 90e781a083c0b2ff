// tokenizers.js's speed on the texts package hf's TestBenchReport hands it:
// node bench.mjs HF_DIR TEXTS.json FAMILY…, where TEXTS.json is
// {"corpus": "...", "messages": ["...", ...]}. Prints one JSON line per
// family: load time, corpus MB/s and µs per message, best of several runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { familyDir } from './files.mjs';

const [dir, textsFile, ...families] = process.argv.slice(2);
const { Tokenizer } = await import(pathToFileURL(join(dir, 'node_modules/@huggingface/tokenizers/dist/tokenizers.mjs')));
const { corpus, messages } = JSON.parse(readFileSync(textsFile, 'utf8'));
const corpusBytes = Buffer.byteLength(corpus);

function best(runs, f) {
  let b = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    f();
    b = Math.min(b, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return b; // ms
}

for (const family of families) {
  const models = familyDir(dir, family);
  const t0 = process.hrtime.bigint();
  const json = JSON.parse(readFileSync(join(models, 'tokenizer.json'), 'utf8'));
  const config = JSON.parse(readFileSync(join(models, 'tokenizer_config.json'), 'utf8'));
  const tok = new Tokenizer(json, config);
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const count = (s) => tok.encode(s, { add_special_tokens: false }).ids.length;
  count(corpus); // warm: JIT and its piece cache, as the Go side's
  const corpusMs = best(3, () => count(corpus));
  const msgMs = best(3, () => { for (const m of messages) count(m); });
  console.log(JSON.stringify({ family, loadMs, mbps: corpusBytes / 1e6 / (corpusMs / 1e3), usPerMessage: (msgMs * 1e3) / messages.length }));
}
