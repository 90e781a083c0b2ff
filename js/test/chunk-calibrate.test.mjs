// Issue 8 through the npm package: chunking judged by the official tiktoken
// on every corpus file (every script the corpus holds), and calibration on
// recorded pairs, the Go tests' (core/chunk_test.go, core/calibrate_test.go)
// counterparts at the package's surface. Run by make test-js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { get_encoding } from 'tiktoken';
import * as tokenfit from 'tokenfit';

const corpus = new URL('../../testdata/corpus/', import.meta.url);
const texts = Object.fromEntries(
  readdirSync(corpus)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => [f, readFileSync(new URL(f, corpus), 'utf8')]),
);

const utf8 = new TextEncoder();

test('chunk: every corpus file, two sizes, two encodings: exact counts, within the limit, concatenating back', async () => {
  const tf = await tokenfit.init();
  let chunks = 0;
  const cuts = {};
  for (const name of ['o200k_base', 'cl100k_base']) {
    const official = get_encoding(name);
    try {
      for (const [file, text] of Object.entries(texts)) {
        for (const maxTokens of [64, 512]) {
          const a = tf.chunk(text, maxTokens, { encoding: name });
          const where = `${file}, ${name}, ${maxTokens}`;
          assert.equal(a.chunks.map((c) => c.text).join(''), text, `${where}: the chunks do not concatenate back`);
          const bytes = utf8.encode(text);
          let at = 0;
          for (const c of a.chunks) {
            const n = official.encode_ordinary(c.text).length;
            assert.equal(c.tokens, n, `${where}: chunk at byte ${c.start} counts ${c.tokens}, tiktoken ${n}`);
            assert.ok(c.tokens <= maxTokens, `${where}: chunk at byte ${c.start} holds ${c.tokens} tokens`);
            assert.equal(c.start, at, `${where}: a gap or overlap before byte ${c.start}`);
            assert.equal(c.end - c.start, utf8.encode(c.text).length, `${where}: offsets are not the chunk's UTF-8 bytes`);
            at = c.end;
            cuts[c.cut] = (cuts[c.cut] || 0) + 1;
          }
          assert.equal(at, bytes.length, `${where}: the chunks end before the text`);
          chunks += a.chunks.length;
        }
      }
    } finally {
      official.free();
    }
  }
  // Natural boundaries win when one is close: a cut inside a word happens
  // only where the text has none (Thai, Lao, Khmer, Burmese and the like
  // write no spaces between words).
  const natural = chunks - (cuts.token || 0) - (cuts.end || 0);
  assert.ok(natural / chunks > 0.5, `only ${natural} of ${chunks} chunks end at a paragraph, line, sentence or word: ${JSON.stringify(cuts)}`);
  console.log(`# chunk: ${chunks} chunks over ${Object.keys(texts).length} files; cuts ${JSON.stringify(cuts)}`);
});

test('chunk: prose ends its chunks at paragraphs and sentences, and overlap repeats the previous tokens', async () => {
  const tf = await tokenfit.init();
  const text = texts['en.txt'];
  const a = tf.chunk(text, 200, { model: 'gpt-4o' });
  const prose = a.chunks.slice(0, -1).filter((c) => ['paragraph', 'line', 'sentence'].includes(c.cut));
  assert.ok(prose.length >= (a.chunks.length - 1) * 0.8, `cuts: ${a.chunks.map((c) => c.cut)}`);

  const o = tf.chunk(text, 200, { model: 'gpt-4o', overlap: 20 });
  for (let i = 1; i < o.chunks.length; i++) {
    const prev = o.chunks[i - 1];
    const c = o.chunks[i];
    assert.ok(c.start < prev.end && c.start > prev.start, `chunk ${i} starts at ${c.start}, the previous one spans ${prev.start}–${prev.end}`);
    assert.ok(c.tokens <= 200);
  }
  // What each chunk adds after the previous one's end, joined, is the text.
  const bytes = utf8.encode(text);
  const dec = new TextDecoder();
  let added = dec.decode(bytes.subarray(0, o.chunks[0].end));
  for (let i = 1; i < o.chunks.length; i++) added += dec.decode(bytes.subarray(o.chunks[i - 1].end, o.chunks[i].end));
  assert.equal(added, text);

  assert.throws(() => tf.chunk(text, 0), (e) => e.code === 'invalid_request' && e.field === 'maxTokens');
  assert.throws(() => tf.chunk(text, 100, { overlap: 60 }), (e) => e.code === 'invalid_request' && e.field === 'overlap');
  assert.deepEqual(tf.chunk('', 10).chunks, []);
});

// A pretend provider whose hidden tokenizer is the official cl100k_base,
// estimated through an estimator over o200k_base that claims a wide bound,
// on the paragraphs of English, chat and markdown traffic.
test('calibrate: the bound tightens as reported usage arrives, never under-reserves, and budgets use it', async () => {
  const tf = await tokenfit.init();
  tf.registerModels({
    estimators: { 'pretend-npm': { base: 'o200k_base', ratio: 1.0, errorBound: 0.5 } },
    models: [{ id: 'pretend-npm-1', contextWindow: 100000, estimator: 'pretend-npm' }],
  });
  const hidden = get_encoding('cl100k_base');
  try {
    const paragraphs = ['en.txt', 'chat.txt', 'markdown.txt'].flatMap((f) => texts[f].split('\n\n').filter((p) => p.length > 200));
    assert.ok(paragraphs.length >= 20, `${paragraphs.length} paragraphs`);
    let calibration;
    const bounds = [];
    const seen = [];
    for (const p of paragraphs) {
      const est = tf.countTokens(p, { model: 'pretend-npm-1' });
      const counted = tf.call('countTokens', { text: p, model: 'pretend-npm-1' });
      assert.equal(counted.exact, false);
      assert.equal(counted.tokens, est);
      const reported = hidden.encode_ordinary(p).length;
      const a = tf.calibrate({ calibration, model: 'pretend-npm-1', estimate: est, reported });
      calibration = JSON.parse(JSON.stringify(a.calibration)); // as an edge function keeps it
      bounds.push(a.current.errorBound);
      seen.push([est, reported]);
      for (const [e, r] of seen) {
        const upper = e * a.current.factor * (1 + a.current.errorBound);
        assert.ok(upper >= r, `after ${seen.length} pairs: upper bound ${upper.toFixed(0)} < reported ${r}`);
      }
    }
    const [first, last] = [bounds[0], bounds.at(-1)];
    assert.ok(last < first / 2 && last < bounds[4], `the bound did not tighten: ${bounds.map((b) => b.toFixed(3))}`);
    console.log(`# calibrate: bound ${first.toFixed(3)} after 1 pair, ${last.toFixed(3)} after ${bounds.length}`);

    // A calibrated budget reserves at least what the provider bills.
    const doc = texts['en.txt'];
    const b = tf.calculateBudget({ model: 'pretend-npm-1', sections: { system: doc }, calibration });
    assert.ok(b.sections.system.tokens >= hidden.encode_ordinary(doc).length, `calibrated ${b.sections.system.tokens}, billed ${hidden.encode_ordinary(doc).length}`);
    const plain = tf.calculateBudget({ model: 'pretend-npm-1', sections: { system: doc } });
    assert.ok(b.sections.system.tokens < plain.sections.system.tokens, 'calibration did not tighten the reserve');

    assert.throws(() => tf.calibrate({ model: 'pretend-npm-1', estimate: -1, reported: 10 }), (e) => e.code === 'invalid_request' && e.field === 'estimate');
  } finally {
    hidden.free();
  }
});
