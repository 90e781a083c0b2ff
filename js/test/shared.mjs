// Checks every runtime runs the same way: Node (node:test), Deno, Bun,
// workerd and Chromium each start an instance and call these. Nothing here
// needs a runtime's own API. Each check returns a list of failures (empty
// when it passed), so a runtime without node:test can report them.
//
// vectors: { tokens: testdata/vectors/tokens.json with every case's text
// filled in, chat: testdata/vectors/chat_api_verified.json, budgets: the
// cases of budget.json, plan.json and shapes.json }, as bundleVectors (vectors.mjs)
// makes it.

import { contains } from './hostile.mjs';

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });
// What a JavaScript string becomes through UTF-8 (lone surrogates → U+FFFD).
const utf8 = (s) => dec.decode(enc.encode(s));
const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const show = (s) => JSON.stringify(s.length > 60 ? s.slice(0, 60) + '…' : s);

/** Counts, ids and round trips of every token vector in every encoding. */
export function checkTokenVectors(tf, vectors, { ids = true } = {}) {
  const failures = [];
  let checked = 0;
  for (const e of ENCODINGS) {
    const t = { encoding: e };
    for (const c of vectors.tokens.cases) {
      const text = c.text;
      const n = tf.countTokens(text, t);
      checked++;
      if (n !== c.counts[e]) failures.push(`${e} ${c.name} ${show(text)}: countTokens ${n}, tiktoken ${c.counts[e]}`);
      if (ids && c.ids) {
        const got = tf.encode(text, t);
        if (!sameIds(got, c.ids[e])) failures.push(`${e} ${c.name} ${show(text)}: encode [${got.slice(0, 8)}…], tiktoken [${c.ids[e].slice(0, 8)}…]`);
        const back = tf.decode(c.ids[e], t);
        if (back !== utf8(text)) failures.push(`${e} ${c.name} ${show(text)}: decode gave ${show(back)}`);
      }
    }
  }
  if (checked === 0) failures.push('no token vectors');
  return failures;
}

/** Every chat request the API billed: countChat's total must equal prompt_tokens (knownMismatch aside). */
export function checkChatVectors(tf, vectors) {
  const failures = [];
  let exact = 0;
  for (const v of vectors.chat) {
    const model = v.resolvedModel || v.model;
    let got;
    try {
      got = tf.countChat({ ...v.request, model }).total;
    } catch (e) {
      failures.push(`${v.name}: ${e.code}: ${e.message}`);
      continue;
    }
    if (v.knownMismatch) continue;
    if (got !== v.prompt_tokens) failures.push(`${v.name}: countChat ${got}, the API billed ${v.prompt_tokens}`);
    else exact++;
  }
  if (exact === 0) failures.push('no chat vector matched');
  return failures;
}

/**
 * testdata/vectors/budget.json and plan.json: each answer must hold the
 * case's expect (contains: objects by their keys, arrays whole, numbers by
 * value), as core's TestVectors_BudgetAndPlan and the host's read them.
 */
export function checkBudgetVectors(tf, vectors) {
  const failures = [];
  for (const c of vectors.budgets) {
    const why = contains(answerOf(() => tf.call(c.op, c.request)), c.expect);
    if (why) failures.push(`${c.name}: ${why}`);
  }
  if (vectors.budgets.length < 8) failures.push(`only ${vectors.budgets.length} budget and plan vectors`);
  return failures;
}

/** answerOf returns fn's answer, or its TokenfitError as the error answer core gives. */
export function answerOf(fn) {
  try {
    return fn();
  } catch (e) {
    return { error: { code: e.code, message: e.message, ...(e.field === undefined ? {} : { field: e.field }) } };
  }
}

function expectError(failures, what, code, fn) {
  try {
    fn();
  } catch (e) {
    if (e.name !== 'TokenfitError' || e.code !== code || !e.message) {
      failures.push(`${what}: threw ${e.name} ${e.code}: ${e.message}, want TokenfitError ${code}`);
    }
    return e;
  }
  failures.push(`${what}: did not throw (want ${code})`);
  return null;
}

/** Typed errors for bad arguments, and an instance that keeps answering after them. */
export function checkErrors(tf) {
  const f = [];
  const ok = () => {
    const n = tf.countTokens('Hello world');
    if (n !== 2) f.push(`after an error, countTokens('Hello world') = ${n}`);
  };
  for (const [what, code, fn] of [
    ['countTokens(number)', 'invalid_argument', () => tf.countTokens(42)],
    ['countTokens(undefined)', 'invalid_argument', () => tf.countTokens()],
    ['countTokens(object)', 'invalid_argument', () => tf.countTokens({ text: 'x' })],
    ['countTokens(text, "o200k_base")', 'invalid_argument', () => tf.countTokens('x', 'o200k_base')],
    ['countTokens(text, {encoding: 5})', 'invalid_argument', () => tf.countTokens('x', { encoding: 5 })],
    ['countTokens(text, {encoding: "nope"})', 'unknown_encoding', () => tf.countTokens('x', { encoding: 'nope' })],
    ['encode(null)', 'invalid_argument', () => tf.encode(null)],
    ['decode("x")', 'invalid_argument', () => tf.decode('x')],
    ['decode([-1])', 'invalid_argument', () => tf.decode([-1])],
    ['decode([1.5])', 'invalid_argument', () => tf.decode([1.5])],
    ['decode([an id past the vocabulary])', 'invalid_token', () => tf.decode([1, 999999999])],
    ['withinLimit(text, -1)', 'invalid_argument', () => tf.withinLimit('x', -1)],
    ['withinLimit(text, "5")', 'invalid_argument', () => tf.withinLimit('x', '5')],
    ['truncate(text, 2.5)', 'invalid_argument', () => tf.truncate('x', 2.5)],
    ['truncate(text, 2, {keep: "middle"})', 'invalid_argument', () => tf.truncate('x', 2, { keep: 'middle' })],
    ['liveCounter(target, 7)', 'invalid_argument', () => tf.liveCounter(undefined, 7)],
  ]) {
    expectError(f, what, code, fn);
    ok();
  }
  if (tf.module === 'lite') {
    expectError(f, 'countChat on the lean module', 'unknown_operation', () => tf.countChat({ messages: [] }));
    expectError(f, 'countTokens by model on the lean module', 'invalid_request', () => tf.countTokens('x', { model: 'gpt-4o' }));
  } else {
    expectError(f, 'countChat(no object)', 'invalid_argument', () => tf.countChat('hi'));
    const e = expectError(f, 'countChat(bad messages)', 'invalid_request', () => tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 5 }] }));
    if (e && !e.field) f.push('countChat(bad messages): no field in the error');
    expectError(f, 'calculateBudget(bad limits)', 'invalid_request', () => tf.calculateBudget({ limits: { minHistoryTokens: -1 } }));
    expectError(f, 'planInjection(bad items)', 'invalid_request', () => tf.planInjection({ budget: 10, items: [{ id: '', activation: 2 }] }));
    expectError(f, 'call(unknown op)', 'unknown_operation', () => tf.call('nope', {}));
    expectError(f, 'call(invalid JSON)', 'invalid_request', () => tf.call('countTokens', '{"text": '));
    expectError(f, 'registerModels(bad)', 'invalid_request', () => tf.registerModels({ models: [{ id: '' }] }));
  }
  ok();
  // Inputs that are valid but unusual.
  const checks = [
    ['empty text', tf.countTokens(''), 0],
    ['empty encode', tf.encode('').length, 0],
    ['empty decode', tf.decode([]), ''],
    ['lone surrogate counts as U+FFFD', tf.countTokens('a\ud800b'), tf.countTokens('a\ufffdb')],
    ['lone low surrogate', tf.countTokens('\udc00'), tf.countTokens('\ufffd')],
    ['special-token text is ordinary', tf.countTokens('<|endoftext|>'), 7],
    ['BOM kept by truncate', tf.truncate('\ufeffx y z', 1).text, '\ufeff'],
    ['truncate to 0', tf.truncate('Hello world', 0).text, ''],
    ['truncate from the end', tf.truncate('Hello big world', 1, { keep: 'end' }).text, ' world'],
    ['truncate a text that fits', tf.truncate('Hello', 5).truncated, false],
    ['withinLimit over', tf.withinLimit('Hello big world', 2).within, false],
    ['withinLimit under', tf.withinLimit('Hello big world', 3).tokens, 3],
    ['decode cut inside a character', tf.decode(tf.encode('漢', { encoding: 'r50k_base' }).slice(0, 1), { encoding: 'r50k_base' }).includes('\ufffd'), true],
  ];
  for (const [what, got, want] of checks) if (got !== want) f.push(`${what}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  // A huge text: 8 MB of mixed text counts, and the instance still answers.
  const unit = 'The quick brown fox 跳过 the lazy dog 🙂. ';
  const huge = unit.repeat(Math.ceil((8 << 20) / enc.encode(unit).length));
  const n = tf.countTokens(huge);
  const m = tf.countTokens(unit.repeat(1000));
  if (!(n > 1000 * 0.9 * (huge.length / unit.length / 1000) * (m / 1000))) f.push(`huge text: ${n} tokens`);
  if (tf.withinLimit(huge, 10).within) f.push('huge text within 10 tokens');
  ok();
  return f;
}

/** Functions keep working when destructured. */
export function checkDestructured(tf) {
  const f = [];
  const { countTokens, encode, decode, withinLimit, truncate, liveCounter, encodings } = tf;
  if (countTokens('Hello world') !== 2) f.push('destructured countTokens');
  if (decode(encode('Hello world')) !== 'Hello world') f.push('destructured encode/decode');
  if (!withinLimit('Hello world', 2).within) f.push('destructured withinLimit');
  if (truncate('Hello world', 1).text !== 'Hello') f.push('destructured truncate');
  if (encodings().length !== 4) f.push('destructured encodings');
  const { edit, count, text, dispose } = liveCounter({ encoding: 'o200k_base' }, 'Hello');
  if (edit(5, 0, ' world') !== 2 || count() !== 2 || text() !== 'Hello world') f.push('destructured live counter');
  dispose();
  if (tf.module !== 'lite') {
    const { countChat, calculateBudget, planInjection, models, version } = tf;
    if (countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).total !== 8) f.push('destructured countChat');
    if (calculateBudget({ model: 'gpt-4o' }).responseReserve !== 4096) f.push('destructured calculateBudget');
    if (planInjection({ budget: 100, items: [{ id: 'a', name: 'a', kind: 'directive', activation: 0.9, content: 'Be brief.' }] }).items[0].tier !== 'full') f.push('destructured planInjection');
    if (!models({ model: 'gpt-4o' }).model) f.push('destructured models');
    if (typeof version() !== 'string') f.push('destructured version');
  }
  return f;
}

// A seeded generator, so failures repeat.
function rng(seed) {
  return (n) => {
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed % n;
  };
}

const frags = [' ', '  ', '\n', '\t', 'the', ' the', 'Hello', "'s", '123', '你好', '😀', '👍🏽', 'é', '\u0301', '.', '//', '<|endoftext|>', 'x'];

/** The live counter against full recounts on random edits (UTF-16 offsets, surrogate pairs included). */
export function checkLive(tf, { edits = 400, encoding = 'o200k_base' } = {}) {
  const f = [];
  const rand = rng(0x9e3779b9);
  let text = 'Start: ';
  const lc = tf.liveCounter({ encoding }, text);
  for (let i = 0; i < edits && f.length < 5; i++) {
    let at = rand(text.length + 1);
    let del = Math.min(rand(6), text.length - at);
    let ins = '';
    for (let k = rand(4); k > 0; k--) ins += frags[rand(frags.length)];
    const inPair = (p) => p > 0 && p < text.length && (text.charCodeAt(p) & 0xfc00) === 0xdc00 && (text.charCodeAt(p - 1) & 0xfc00) === 0xd800;
    if (inPair(at) || inPair(at + del)) {
      try {
        lc.edit(at, del, ins);
        f.push(`edit ${i} inside a surrogate pair did not throw`);
      } catch (e) {
        if (e.code !== 'invalid_request') f.push(`edit ${i} inside a surrogate pair: ${e.code}`);
      }
      continue;
    }
    const n = lc.edit(at, del, ins);
    text = text.slice(0, at) + ins + text.slice(at + del);
    const want = tf.countTokens(text, { encoding });
    if (n !== want || lc.count() !== want) f.push(`edit ${i} (${at}, ${del}, ${JSON.stringify(ins)}): live ${n}, recount ${want}`);
  }
  if (lc.text() !== text) f.push('live text differs from the edited text');
  // update() finds the edit itself.
  const next = text.slice(0, 3) + ' inserted 😀 ' + text.slice(3, -2);
  if (lc.update(next) !== tf.countTokens(next, { encoding })) f.push('update()');
  if (lc.text() !== next) f.push('text after update()');
  if (lc.reset('Hello world') !== 2) f.push('reset()');
  lc.dispose();
  try {
    lc.count();
    f.push('count() after dispose() did not throw');
  } catch (e) {
    if (e.code !== 'invalid_handle') f.push(`after dispose: ${e.code}`);
  }
  return f;
}

/** Everything a runtime should pass, by name. */
export function runAll(tf, vectors, { chat = tf.module !== 'lite' } = {}) {
  const results = {
    tokens: checkTokenVectors(tf, vectors),
    errors: checkErrors(tf),
    destructured: checkDestructured(tf),
    live: checkLive(tf),
  };
  if (chat) {
    results.chat = checkChatVectors(tf, vectors);
    results.budgets = checkBudgetVectors(tf, vectors);
  }
  return results;
}
