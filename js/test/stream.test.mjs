// Long texts streamed into the module (wasm/ABI.md, stream_new): a count of
// a text of more than a million UTF-16 units, and a check against a limit
// of one of more than 65,536, write it in parts. Each answer must be the
// whole text's: counts and verdicts as the official tiktoken (npm
// `tiktoken`) counts, and a check's count where it stopped as core's
// WithinLimit over the whole text (the JSON path) has it. The texts put
// every kind of run across the parts' ends (spaces, newlines, digits,
// letters, upper case, emoji, CJK, lone surrogates, mixed), at both
// parities, so that a part that split a surrogate pair or a piece would
// show. make test runs o200k_base on the default and lean modules;
// make test-long (TOKENFIT_LONG=1) every encoding, the full module too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get_encoding } from 'tiktoken';
import * as tokenfit from 'tokenfit';

const long = process.env.TOKENFIT_LONG === '1';
const encodings = long ? ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] : ['o200k_base'];

// The runs, each long enough to cross a part's end wherever it falls (the
// parts are 16,384 units, then twice as long each time, to 262,144), and
// short enough that tiktoken, whose merging is quadratic in a piece's
// length, counts them in good time (100 to 400 units; to 1,000 in make
// test-long).
const runs = {
  spaces: (n) => ' '.repeat(n),
  newlines: (n) => ' \n\r\n '.repeat(n / 4),
  digits: (n) => '0123456789'.repeat(n / 10),
  letters: (n) => 'abcdefghij'.repeat(n / 10),
  upper: (n) => 'ABCDEFGHIJʰ'.repeat(n / 11),
  emoji: (n) => '👍🏽👨‍👩‍👧'.repeat(n / 10),
  cjk: (n) => '日本語のテキスト漢字'.repeat(n / 10),
  lone: (n) => 'a\ud800b\udfffc\ud83d'.repeat(n / 6),
  mixed: (n) => 'Hello, world! 123 日本 👍 ünïcödé\t\n'.repeat(n / 30),
};

// text is runs of one kind between short words, the run lengths varying so
// that runs meet the parts' ends at many offsets; shift moves every end by
// one unit (the other parity).
function text(kind, units, shift) {
  const out = ['x'.repeat(shift)];
  let n = shift;
  for (let i = 0; n < units; i++) {
    const r = runs[kind](100 + ((i * 7919) % (long ? 900 : 300))) + ` word${i}. `;
    out.push(r);
    n += r.length;
  }
  return out.join('');
}

const official = new Map();
function tiktokenCount(name, s) {
  if (!official.has(name)) official.set(name, get_encoding(name));
  return official.get(name).encode_ordinary(s).length;
}

for (const kind of Object.keys(runs)) {
  test(`${kind}: long texts count and check against limits as the whole text does`, async () => {
    const full = await tokenfit.init();
    const modules = [full, await tokenfit.init({ lite: true })];
    if (long) modules.push(await tokenfit.init({ tokenizers: true }));
    for (const shift of [0, 1]) {
      const big = text(kind, (1 << 20) + 70000, shift); // counted in parts
      const mid = big.slice(0, 200000 + shift); // checked in parts, counted whole
      for (const name of encodings) {
        const want = tiktokenCount(name, big);
        const wantMid = tiktokenCount(name, mid);
        const checks = [[big, want, [0, 700, 40000, want]], [mid, wantMid, [1, 5000, wantMid - 1, wantMid, wantMid + 1]]];
        for (const [s, total, limits] of checks) {
          for (const limit of limits) {
            // core's WithinLimit over the whole text, through JSON.
            const whole = full.call('withinLimit', { encoding: name, text: s, limit });
            assert.equal(whole.within, total <= limit, `${name}, shift ${shift}: ${s.length} units, limit ${limit}: within`);
            if (whole.within) assert.equal(whole.tokens, total, `${name}, shift ${shift}: limit ${limit}: tokens`);
            for (const tf of modules) {
              const a = tf.withinLimit(s, limit, { encoding: name });
              assert.deepEqual(a, whole, `${tf.module}, ${name}, shift ${shift}: ${s.length} units, limit ${limit}`);
            }
          }
        }
        for (const tf of modules) assert.equal(tf.countTokens(big, { encoding: name }), want, `${tf.module}, ${name}, shift ${shift}: count`);
      }
    }
  });
}

test('withinLimit by model streams with the model\'s encoding, and answers as the JSON path does', async () => {
  const tf = await tokenfit.init();
  const s = text('mixed', 300000, 0);
  for (const limit of [10, 50000, 10 ** 6]) {
    for (const target of [{ model: 'gpt-4o' }, { model: 'gpt-4' }, { model: 'claude-sonnet-4' }, { encoding: 'chars4' }]) {
      const a = tf.withinLimit(s, limit, target);
      assert.deepEqual(a, tf.call('withinLimit', { ...target, text: s, limit }), `${JSON.stringify(target)} limit ${limit}`);
    }
  }
});

test('a text of more than 1 GiB of UTF-8 is refused before it is written as JSON, and a long one counted in parts', async () => {
  const tf = await tokenfit.init();
  const lite = await tokenfit.init({ lite: true });
  const huge = '漢字、'.repeat(120 * 2 ** 20); // 1.06 GiB of UTF-8 in 720 MB of UTF-16
  for (const f of [() => tf.encode(huge), () => tf.truncate(huge, 10), () => lite.encode(huge)]) {
    assert.throws(f, (e) => e instanceof tokenfit.TokenfitError && e.code === 'invalid_argument' && /more than 1073741824 bytes/.test(e.message));
  }
  // Streamed, a check reads no further than its limit needs.
  for (const t of [tf, lite]) assert.deepEqual(t.withinLimit(huge, 100), t.withinLimit(huge.slice(0, 3000), 100));
  assert.equal(tf.countTokens('Hello world'), 2, 'the instance still answers');
});

test('a stretch of more than 256 MiB with no place to split is refused, and the instance still answers', { skip: !long && 'TOKENFIT_LONG=1 (make test-long)' }, async () => {
  for (const tf of [await tokenfit.init(), await tokenfit.init({ lite: true })]) {
    const one = 'a'.repeat(257 * 2 ** 20);
    for (const f of [() => tf.countTokens(one), () => tf.withinLimit(one, 10)]) {
      assert.throws(f, (e) => e instanceof tokenfit.TokenfitError && e.code === 'invalid_argument' && /256 MiB with no place to split/.test(e.message));
    }
    assert.equal(tf.countTokens('Hello world'), 2, 'the instance still answers');
  }
});
