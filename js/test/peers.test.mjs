// What the peers' own test suites (tiktoken, js-tiktoken, gpt-tokenizer)
// assert, asked of the package and judged by the official tiktoken (npm
// `tiktoken`) at test time, so that a user coming from one of them meets no
// surprise: ids and round trips on short, repeated and mixed-script texts,
// special-token text as ordinary text, special ids decoding to their text,
// decode of ids cut inside a character as TextDecoder reads tiktoken's
// bytes, invalid ids as typed errors, isWithinTokenLimit's semantics, the
// model-name map, and chat counts by the cookbook's rule. Where tokenfit
// differs by design (js/README.md, "Coming from tiktoken, js-tiktoken or
// gpt-tokenizer"), the test says so. Run by make test-js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { get_encoding } from 'tiktoken';
import * as tokenfit from 'tokenfit';

const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];
// tiktoken's names for the same ranks.
const SAME_RANKS = { gpt2: 'r50k_base', p50k_edit: 'p50k_base', o200k_harmony: 'o200k_base' };
// ignoreBOM: a BOM the ids hold is text (TextDecoder's default drops a leading one).
const text = new TextDecoder('utf-8', { ignoreBOM: true });

const official = new Map();
function tiktoken(name) {
  if (!official.has(name)) official.set(name, get_encoding(name));
  return official.get(name);
}
const ordinary = (name, s) => Array.from(tiktoken(name).encode_ordinary(s));
const officialText = (name, ids) => text.decode(tiktoken(name).decode(Uint32Array.from(ids)));

// Texts of our own covering what the peers' suites pick: empty, one space or
// tab, words that split, object-property names, commas, contractions,
// digits, whitespace runs and line ends, emoji (ZWJ sequences, flags, skin
// tones), CJK, Indic, Arabic, combining marks, control characters, a BOM,
// lone surrogates, and the special tokens' text.
const texts = [
  '', ' ', '\t', '\n', '  ', 'Hello there', 'hello  there ', ' hello', 'unbelievable', 'constructor __proto__ toString valueOf',
  'one, two, three. x,y,z', "It's what they've said; we'd've", "WHAT'S UP", '0', '00000000000000000', '3.14159 1,000,000',
  'line one\nline two\r\n\r\n  indented\n\n\n', 'tabs\t\tand   spaces    ', 'trailing\n ', 'a\n \n\tb',
  'good morning 🌅 and good night 🌙', '👩‍👩‍👧‍👦 🇯🇵🇧🇷 👋🏿 ❤️‍🔥', '学习机器学习很有趣！12345', 'テキストを数える', '토큰을 세다',
  'हिन्दी में गिनती', 'عدّ الرموز', 'ספירת אסימונים', 'ஒரு தமிழ் வாக்கியம்', 'Ελληνικά κείμενα', 'e\u0301\u0302 a\u0308 n\u0303',
  '\u0000\u0001\u001f\u007f', '\ufeffBOM first', 'a\u2028b\u2029c\u0085d', '\ud800 lone \udfff halves', '\ud83d',
  '<|endoftext|>', 'before <|endoftext|> after', '<|fim_prefix|>def f():<|fim_suffix|><|fim_middle|>', '<|im_start|>user\nhi<|im_end|>',
  '<|endofprompt|>', '<|endoftext', '|>', '<|',
  // Where a line end, a space and the next line meet; an apostrophe before
  // a non-contraction; NEL before a digit; digit runs of every length to 17.
  'noon\n ', 'noon\n \n', 'noon\n  \n', "'xyz", "x'xyz", ' \u00857',
  // Scripts and code points the list above and the shared corpus leave out
  // (audit): CJK extensions B-H (astral), scripts written without spaces,
  // conjuncts, conjoining jamo beside syllables, NFD beside NFC, math
  // alphanumerics, every Unicode space, bidi controls with marks, private
  // use, noncharacters, tag characters, a stack of combining marks.
  '𠀀𠀁𪜀𫝀𬺰𰀀𱍐 𠮷野家', 'ภาษาไทยไม่มีการเว้นวรรค', 'ພາສາລາວບໍ່ມີ', 'ភាសាខ្មែរគ្មានដកឃ្លា', 'မြန်မာဘာသာစကား',
  'क्षत्रिय श्रृंखला ज्ञान', 'ক্ষ্ম্য স্ত্রী', '\u1100\u1161\u11a8 각 \u1112\u1161\u11ab', 'Ame\u0301lie Amélie A\u030a Å',
  '𝐀𝐁𝐂 𝔸𝔹ℂ 𝒜ℬ 𝟘𝟙𝟚 𝖆𝖇', 'a\u2000b\u2002c\u200ad\u202fe\u205ff\u3000g\u1680h\u180ei\u200bj\u00a0k',
  'بِسْمِ\u200fٱللَّٰهِ\u200e abc \u202bמִילָה\u202c', '\ue000\uf8ff\u{f0000}\u{10fffd}\ufffe\uffff\u{1fffe}',
  '\u{e0041}\u{e0042}\u{e007f}', 'Z\u0337\u0327\u031b\u0308\u0342\u033e'.repeat(8),
  ...Array.from({ length: 17 }, (_, k) => '9'.repeat(k + 1)),
];

test('encode equals tiktoken\'s encode_ordinary and decode gives the text back, on every encoding', async () => {
  const tf = await tokenfit.init();
  for (const name of ENCODINGS) {
    for (const s of texts) {
      const target = { encoding: name };
      const ids = tf.encode(s, target);
      assert.deepEqual(ids, ordinary(name, s), `${name}: ${JSON.stringify(s)}`);
      assert.equal(tf.countTokens(s, target), ids.length, `${name}: count of ${JSON.stringify(s)}`);
      // A lone surrogate is U+FFFD (tiktoken's Python suite asserts the same of its encode).
      assert.equal(tf.decode(ids, target), s.toWellFormed(), `${name}: round trip of ${JSON.stringify(s)}`);
      assert.equal(tf.decode(ids, target), officialText(name, ids), `${name}: decode of ${JSON.stringify(s)}`);
    }
  }
});

test('long repetitions of one character, with a space before and a line end after: tiktoken\'s ids, round trips', async () => {
  const tf = await tokenfit.init();
  // 3,000 repetitions: tiktoken's own test takes 10,000, which its WebAssembly
  // build encodes in seconds each (it is quadratic in a piece's length);
  // 100 KB repetitions are in the shared vectors (testdata/vectors/tokens.json).
  for (const name of ENCODINGS) {
    for (const c of ['^', '0', 'a', "'s", ' ', '\n', '\t', '\r\n', '🙂', 'é', '漢', ' a', '.\n']) {
      for (const s of [c.repeat(3000), ` ${c.repeat(3000)}`, ` ${c.repeat(3000)}\n`]) {
        const ids = tf.encode(s, { encoding: name });
        assert.deepEqual(ids, ordinary(name, s), `${name}: ${JSON.stringify(s.slice(0, 8))}… (${s.length})`);
        assert.equal(tf.decode(ids, { encoding: name }), s);
      }
    }
  }
  // tiktoken's suite encodes a million letters with its Python build; its
  // WebAssembly build traps on them (unreachable). tokenfit answers, and
  // the ids give the text back.
  const ids = tf.encode('x'.repeat(1_000_000));
  assert.equal(tf.countTokens('x'.repeat(1_000_000)), ids.length);
  assert.equal(tf.decode(ids), 'x'.repeat(1_000_000));
});

test('special-token text is ordinary text (tiktoken and gpt-tokenizer throw unless allowed), and special ids decode to their text', async () => {
  const tf = await tokenfit.init();
  for (const name of ENCODINGS) {
    const enc = tiktoken(name);
    for (const s of ['hello <|endoftext|>', '<|endoftext|> hello <|fim_prefix|> there <|fim_middle|>', '<|endofprompt|><|fim_suffix|>']) {
      // tiktoken's encode refuses text holding a special token's text unless it is allowed…
      const specials = s.match(/<\|[a-z_]+\|>/g).filter((t) => { try { enc.encode_single_token(new TextEncoder().encode(t)); return true; } catch { return false; } });
      if (specials.length) assert.throws(() => enc.encode(s), undefined, `${name}: tiktoken's encode no longer refuses ${s}`);
      // …and with disallowed_special=() it is encode_ordinary, which tokenfit's encode always is.
      assert.deepEqual(tf.encode(s, { encoding: name }), Array.from(enc.encode(s, [], [])), `${name}: ${s}`);
      assert.equal(tf.countTokens(s, { encoding: name }), enc.encode_ordinary(s).length);
      // With every special token allowed, tiktoken gives the special ids; tokenfit decodes them to their text.
      const withSpecial = Array.from(enc.encode(s, 'all'));
      assert.equal(tf.decode(withSpecial, { encoding: name }), s, `${name}: decode of ${withSpecial}`);
      assert.equal(tf.decode(withSpecial, { encoding: name }), officialText(name, withSpecial));
    }
  }
});

test('decode of ids cut anywhere, and of any bytes, is tiktoken\'s decode read by TextDecoder (one U+FFFD per cut character)', async () => {
  const tf = await tokenfit.init();
  for (const name of ENCODINGS) {
    const target = { encoding: name };
    for (const s of ['👍', 'x👍y', '🦘𝔘 龘 ok', '👨‍👩‍👧 émoji 𝔘𝔫𝔦', 'नमस्ते ভাষা ﷺ', '\u{10FFFD}\u{E0001}']) {
      const ids = tf.encode(s, target);
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j <= ids.length; j++) {
          const cut = ids.slice(i, j);
          const want = officialText(name, cut);
          assert.equal(tf.decode(cut, target), want, `${name}: decode of ${cut} (from ${JSON.stringify(s)})`);
          assert.deepEqual(tf.decode(cut, target, { valid: true }), { text: want, valid: !want.includes('\ufffd') });
        }
      }
    }
    // Every byte has a token of its own: random bytes, as ids, decode as TextDecoder reads them.
    const enc = tiktoken(name);
    const byteIds = Array.from({ length: 256 }, (_, b) => enc.encode_single_token(Uint8Array.of(b)));
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const lead = [0x41, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff, 0x9f, 0xa0, 0x8f, 0x90];
    for (let k = 0; k < 400; k++) {
      const bytes = Array.from({ length: 1 + (next() % 9) }, () => (next() % 3 ? lead[next() % lead.length] : next() % 256));
      const ids = bytes.map((b) => byteIds[b]);
      assert.equal(tf.decode(ids, target), text.decode(Uint8Array.from(bytes)), `${name}: bytes ${bytes.map((b) => b.toString(16))}`);
    }
  }
  // The Go host's and the CLI's decode follow the same rule (engine.LossyUTF8), through core's JSON answer.
  const tf2 = await tokenfit.init();
  assert.equal(tf2.call('decode', { ids: [9468], encoding: 'cl100k_base' }).text, '\ufffd');
});

test('an id the encoding does not have is invalid_token, and the instance answers the next call', async () => {
  const tf = await tokenfit.init();
  for (const name of ENCODINGS) {
    const enc = tiktoken(name);
    // One past the highest special id; for o200k_base also an id in the hole below the specials.
    const ranks = enc.token_byte_values().length;
    const top = Array.from(enc.encode('<|endoftext|>', 'all'))[0];
    for (const id of [Math.max(ranks, top) + 1000, 2 ** 31 - 1, ...(name === 'o200k_base' ? [199998] : [])]) {
      assert.throws(() => enc.decode(Uint32Array.of(id)), undefined, `${name}: tiktoken decodes ${id}`);
      assert.throws(() => tf.decode([id], { encoding: name }), (e) => e.code === 'invalid_token' && e.message.includes(String(id)), `${name}: ${id}`);
    }
    assert.equal(tf.decode(tf.encode('still here', { encoding: name }), { encoding: name }), 'still here');
  }
  // Negative, fractional and unsafe ids are the caller's mistake: invalid_argument.
  for (const ids of [[-1], [1.5], [2 ** 53], [NaN], ['1']]) {
    assert.throws(() => tf.decode(ids), (e) => e.code === 'invalid_argument', JSON.stringify(ids));
  }
});

test('withinLimit is isWithinTokenLimit: within exactly when the count is at most the limit, the count then exact', async () => {
  const tf = await tokenfit.init();
  // gpt-tokenizer's isWithinTokenLimit(text, limit) is `within ? tokens : false` of this.
  const isWithinTokenLimit = (s, limit, target) => {
    const a = tf.withinLimit(s, limit, target);
    return a.within ? a.tokens : false;
  };
  for (const name of ENCODINGS) {
    for (const s of texts.concat(['word '.repeat(500), '漢字'.repeat(300)])) {
      const n = ordinary(name, s).length;
      for (const limit of new Set([0, 1, Math.max(0, n - 1), n, n + 1, 10 * n + 3])) {
        const a = tf.withinLimit(s, limit, { encoding: name });
        assert.equal(a.within, n <= limit, `${name}: ${JSON.stringify(s.slice(0, 20))} (${n} tokens) within ${limit}`);
        if (a.within) assert.equal(a.tokens, n);
        else assert.ok(a.tokens > limit && a.tokens <= n, `${name}: stopped at ${a.tokens}, limit ${limit}, count ${n}`);
        assert.equal(isWithinTokenLimit(s, limit, { encoding: name }), n <= limit ? n : false);
      }
    }
  }
  // gpt-tokenizer's own cases: an empty text is within a limit of 0 (0 tokens), a space is not.
  assert.equal(isWithinTokenLimit('', 0), 0);
  assert.equal(isWithinTokenLimit(' ', 0), false);
  // A limit that is no token count is a TypeError's worth: invalid_argument.
  for (const limit of [-1, 1.5, NaN, Infinity, '5', undefined]) {
    assert.throws(() => tf.withinLimit('x', limit), (e) => e.code === 'invalid_argument', String(limit));
  }
});

test('every model tiktoken maps counts with tiktoken\'s encoding for it', async () => {
  const tf = await tokenfit.init();
  const map = JSON.parse(readFileSync(new URL('../node_modules/tiktoken/model_to_encoding.json', import.meta.url), 'utf8'));
  assert.ok(Object.keys(map).length > 50);
  const sample = 'Count me: 東京, naïve café 🙂';
  for (const [model, name] of Object.entries(map)) {
    const want = SAME_RANKS[name] ?? name;
    const a = tf.call('countTokens', { text: sample, model });
    assert.equal(a.encoding, want, `${model}: tokenfit ${a.encoding}, tiktoken ${name}`);
    assert.equal(a.tokens, tiktoken(name).encode_ordinary(sample).length, model);
    assert.equal(a.exact, true, model);
  }
  // Encodings by tiktoken's other names.
  for (const [alias, name] of Object.entries(SAME_RANKS)) {
    assert.deepEqual(tf.encode(sample, { encoding: alias }), ordinary(name, sample), alias);
  }
  // Where tiktoken throws for a model it does not know, tokenfit counts with
  // the family's encoding or cl100k_base, and says so (js/README.md).
  assert.throws(() => get_encoding('no-such-encoding'));
  assert.throws(() => tf.countTokens('x', { encoding: 'no-such-encoding' }), (e) => e.code === 'unknown_encoding');
  const unknown = tf.call('countTokens', { text: sample, model: 'acme-9' });
  assert.deepEqual([unknown.encoding, unknown.fallback, unknown.resolvedBy], ['cl100k_base', true, 'unknown']);
});

test('countChat is the cookbook\'s count for the chat models the peers cover, and an empty chat is the reply priming alone', async () => {
  const tf = await tokenfit.init();
  const conversation = [
    { role: 'system', content: 'You answer in one short sentence.' },
    { role: 'user', name: 'ada', content: 'What is a token? <|endoftext|> (that was text)' },
    { role: 'assistant', content: 'A piece of text the model reads as one unit.' },
    { role: 'user', content: '¿Y en español? 日本語では？ 🙂' },
  ];
  for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo']) {
    const a = tf.countChat({ model, messages: conversation });
    const name = a.encoding;
    let want = 3; // every reply is primed with <|start|>assistant<|message|>
    for (const m of conversation) {
      want += 3 + ordinary(name, m.role).length + ordinary(name, m.content).length;
      if (m.name) want += 1 + ordinary(name, m.name).length;
    }
    assert.equal(a.total, want, `${model} (${name})`);
    assert.equal(a.exact, true, model);
    // gpt-tokenizer counts an empty chat as 3, the priming.
    assert.equal(tf.countChat({ model, messages: [] }).total, 3, model);
  }
});

test('a bad id in decode names itself: field ids[i] and its value', async () => {
  const tf = await tokenfit.init();
  for (const [ids, i, got] of [[[13225, -1], 1, 'number -1'], [[1, 2, 1.5], 2, 'number 1.5'], [[0, , 1], 1, 'undefined'], [['7'], 0, 'a string'], [new Int32Array([5, -3]), 1, 'number -3']]) {
    assert.throws(() => tf.decode(ids), (e) => e.code === 'invalid_argument' && e.field === `ids[${i}]` && e.message.includes(`ids[${i}]`) && e.message.endsWith(`got ${got}`), JSON.stringify(ids));
  }
  assert.throws(() => tf.decode('13225'), (e) => e.code === 'invalid_argument' && e.field === undefined);
  assert.equal(tf.decode([13225]), 'Hello');
});
