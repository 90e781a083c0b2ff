// The hostile cases only JavaScript can write: lone surrogates in strings,
// NaN, Infinity, BigInt, cycles, Maps, symbols, functions, sparse arrays,
// objects nested past JSON.stringify's stack, throwing getters, and the
// typed functions given the wrong JavaScript types. hostile.mjs runs them
// after the cases of testdata/hostile, judged by the same rules (an
// expectation as in a case file, then the probe on the same instance).
//
// A case is { name, class, run(tf) → answer, expect, sameAs?(tf) → answer,
// lite? }: run calls the package's public API and returns its answer as an
// object ({tokens} for a count, {ids}, {text}, or what the function
// returns); a TokenfitError becomes the error answer, any other exception
// fails the case unless run catches it. sameAs, when present, must answer
// the same. lite: the lean module answers it the same way (it runs only
// those).
//
// The results the README documents: a lone surrogate is U+FFFD wherever it
// goes (TextEncoder writes it so, and JSON.stringify's escape \udXXX is
// read so by the module), so it counts, encodes and decodes as U+FFFD and
// comes back as one; the halves of a pair sent in two calls stay two U+FFFD
// (liveCounter.update never splits a pair); a value JSON cannot hold is an
// invalid_argument naming it; undefined, functions and symbols inside a
// request are dropped as JSON.stringify drops them; -0 is 0; the caller's
// own exceptions propagate; none of these ends the instance.

const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];
const REPLACED = '\ufffd';

// fffd replaces every lone surrogate of s with U+FFFD (String.prototype
// .toWellFormed, where a runtime lacks it).
function fffd(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s[i] + s[i + 1];
      i++;
    } else out += c >= 0xd800 && c < 0xe000 ? REPLACED : s[i];
  }
  return out;
}

const counts = (tf, text) => ({ counts: ENCODINGS.map((encoding) => tf.countTokens(text, { encoding })) });
const tokens = (n) => ({ tokens: n });

// errorOf runs fn, which must throw, and returns what it threw as an error
// answer with what the caller also wants to see (extra(): the state after).
function errorOf(fn, extra = () => ({})) {
  try {
    fn();
  } catch (e) {
    if (e && e.name === 'TokenfitError') return { error: { code: e.code, message: e.message }, ...extra() };
    throw e;
  }
  return { answer: 'none: it did not throw', ...extra() };
}

// The surrogate cases: run on text, sameAs on fffd(text).
const surrogate = (name, text, ask, { lite = true, expect = 'ok' } = {}) => ({
  name: `js/surrogate: ${name}`,
  class: 'surrogate',
  lite,
  run: (tf) => ask(tf, text),
  sameAs: (tf) => ask(tf, fffd(text)),
  expect,
});

// A typed call that must throw invalid_argument.
const badArgument = (name, run, lite = true) => ({
  name: `js/argument: ${name}`,
  class: 'types',
  lite,
  run,
  expect: 'error:invalid_argument',
});

// A request JSON cannot hold: invalid_argument, the module never reached.
const notJSON = (name, run) => ({ name: `js/not JSON: ${name}`, class: 'numbers', run, expect: 'error:invalid_argument' });

const deep = (n, leaf) => {
  const root = {};
  let o = root;
  for (let i = 1; i < n; i++) o = o.a = {};
  o.a = leaf;
  return root;
};

const cyclic = () => {
  const m = { role: 'user', content: 'hi' };
  m.self = m;
  return m;
};

const hi = [{ role: 'user', content: 'hi' }];

export const jsCases = [
  // ---- lone surrogates: U+FFFD everywhere --------------------------------
  surrogate('lone high in every encoding', '\ud800', counts, { expect: { counts: [1, 1, 1, 1] } }),
  surrogate('lone low between letters', 'a\udc00b', counts),
  surrogate('reversed pair', '\ude00\ud83d', counts),
  surrogate('high at the end, after a valid pair', 'hi 😀\ud83d', counts),
  surrogate('a run of them', '\ud800\ud800\udc00\udc00'.repeat(100) + '\udfff', counts),
  surrogate('encode', 'a\ud800b', (tf, s) => ({ ids: tf.encode(s) })),
  {
    name: 'js/surrogate: decode(encode(text)) gives U+FFFD back',
    class: 'surrogate',
    lite: true,
    run: (tf) => ({ text: tf.decode(tf.encode('a\ud800b\udc00')) }),
    expect: { text: 'a\ufffdb\ufffd' },
  },
  surrogate('withinLimit', '\ud800'.repeat(5), (tf, s) => tf.withinLimit(s, 1), { expect: { within: false, tokens: 2 } }),
  surrogate('truncate', 'ab\ud800cd '.repeat(100), (tf, s) => tf.truncate(s, 10), { expect: { truncated: true } }),
  surrogate('truncate from the end', 'ab\ud800cd '.repeat(100), (tf, s) => tf.truncate(s, 7, { keep: 'end' }), { expect: { truncated: true } }),
  surrogate('liveCounter', 'x\ud800y\udc00', (tf, s) => {
    const c = tf.liveCounter({ encoding: 'cl100k_base' }, s);
    return { tokens: c.count(), text: c.text() };
  }, { expect: { text: 'x\ufffdy\ufffd' } }),
  {
    name: 'js/surrogate: liveCounter.update mends a pair completed in a later update',
    class: 'surrogate',
    lite: true,
    run: (tf) => {
      const c = tf.liveCounter(undefined, 'x\ud83d');
      c.update('x\ud83d\ude00');
      return { tokens: c.count(), text: c.text() };
    },
    sameAs: (tf) => ({ tokens: tf.countTokens('x😀'), text: 'x😀' }),
    expect: { text: 'x😀' },
  },
  {
    name: 'js/surrogate: the halves of a pair in two edits stay two U+FFFD',
    class: 'surrogate',
    lite: true,
    run: (tf) => {
      const c = tf.liveCounter(undefined, 'x\ud83d');
      c.edit(2, 0, '\ude00');
      return { tokens: c.count(), text: c.text() };
    },
    sameAs: (tf) => ({ tokens: tf.countTokens('x\ufffd\ufffd'), text: 'x\ufffd\ufffd' }),
    expect: { text: 'x\ufffd\ufffd' },
  },
  {
    name: 'js/surrogate: an edit inside a pair is refused and changes nothing',
    class: 'surrogate',
    lite: true,
    run: (tf) => {
      const c = tf.liveCounter(undefined, 'a😀b');
      return errorOf(() => c.edit(2, 0, 'x'), () => ({ text: c.text(), tokens: c.count() }));
    },
    expect: { error: { code: 'invalid_request' }, text: 'a😀b' },
  },
  surrogate('through the JSON path', '\ud800x', (tf, s) => tf.call('countTokens', { text: s }), { lite: false, expect: { tokens: 2 } }),
  surrogate('in a chat message and a name', 'hi \udc00', (tf, s) => tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', name: `n${s}`, content: s }] }), { lite: false }),
  surrogate('in a budget section', 'Be brief.\ud800', (tf, s) => tf.calculateBudget({ model: 'gpt-4o', sections: { system: s, knowledge: [s, s] } }), { lite: false }),
  surrogate('in a plan item', '\udbff rules', (tf, s) => tf.planInjection({ budget: 100, items: [{ id: 'a', name: s, kind: 'directive', activation: 0.9, content: s }] }), { lite: false }),
  surrogate('in a model name: a fallback', 'gpt\ud800', (tf, s) => tf.call('countTokens', { text: 'Hello world', model: s }), { lite: false, expect: { tokens: 2, fallback: true } }),
  {
    name: 'js/surrogate: in an encoding name',
    class: 'surrogate',
    lite: true,
    run: (tf) => tokens(tf.countTokens('x', { encoding: 'o200k_base\ud800' })),
    expect: 'error:unknown_encoding',
  },
  // Over 16M UTF-16 units the package measures a text's UTF-8 length
  // before copying it (wasip1.js, utf8Length): a lone surrogate there is
  // 3 bytes, as TextEncoder writes U+FFFD.
  surrogate('lone surrogates in a text of 16.8M units', `${'hello '.repeat(2800000)}\ud800x\udc00😀\ud83d`, (tf, s) => tokens(tf.countTokens(s)), { expect: { tokens: 2800005 } }),
  {
    name: 'js/surrogate: a byte-order mark at the start survives decode and liveCounter.text',
    class: 'surrogate',
    lite: true,
    run: (tf) => ({ text: tf.decode(tf.encode('\ufeffhi')), live: tf.liveCounter(undefined, '\ufeffhi').text() }),
    expect: { text: '\ufeffhi', live: '\ufeffhi' },
  },

  // ---- values JSON cannot hold ---------------------------------------------
  notJSON('contextWindow NaN', (tf) => tf.calculateBudget({ contextWindow: NaN })),
  notJSON('contextWindow Infinity', (tf) => tf.calculateBudget({ contextWindow: Infinity })),
  notJSON('plan budget -Infinity', (tf) => tf.planInjection({ budget: -Infinity, items: [] })),
  notJSON('activation NaN', (tf) => tf.planInjection({ budget: 100, items: [{ id: 'a', name: 'a', activation: NaN, content: 'x' }] })),
  notJSON('a history message as NaN', (tf) => tf.calculateBudget({ history: [NaN] })),
  notJSON('a BigInt', (tf) => tf.countChat({ model: 'gpt-4o', messages: hi, n: 10n })),
  notJSON('a BigInt of 2^64', (tf) => tf.calculateBudget({ contextWindow: 2n ** 64n })),
  notJSON('a BigInt in call()', (tf) => tf.call('withinLimit', { text: 'x', limit: 5n })),
  notJSON('a cycle', (tf) => tf.countChat({ model: 'gpt-4o', messages: [cyclic()] })),
  notJSON('a cycle through an array', (tf) => {
    const a = [];
    a.push({ role: 'user', content: 'x', parts: a });
    return tf.countChat({ model: 'gpt-4o', messages: a });
  }),
  notJSON('a Map as the request', (tf) => tf.calculateBudget(new Map([['contextWindow', 5000]]))),
  notJSON('a Map as sections', (tf) => tf.calculateBudget({ sections: new Map([['system', 'Be brief.']]) })),
  notJSON('a Set of messages', (tf) => tf.countChat({ model: 'gpt-4o', messages: new Set(hi) })),
  notJSON('100,000 levels of objects (past JSON.stringify\'s stack)', (tf) => tf.call('countTokens', { text: 'x', extra: deep(100000, 1) })),
  notJSON('a symbol as the request', (tf) => tf.call('countTokens', Symbol('request'))),
  notJSON('a function as the request', (tf) => tf.call('countTokens', () => ({ text: 'x' }))),
  notJSON('a toJSON that gives undefined', (tf) => tf.calculateBudget({ toJSON: () => undefined })),
  notJSON('registerModels with a NaN window', (tf) => tf.registerModels({ models: [{ id: 'm', contextWindow: NaN }] })),
  {
    name: 'js/not JSON: undefined, functions and symbols inside a request are dropped',
    class: 'types',
    run: (tf) => tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi', name: undefined, extra: () => 1, [Symbol('k')]: 1 }] }),
    expect: { total: 8 },
  },
  {
    name: 'js/not JSON: an undefined message is null, an error naming it',
    class: 'types',
    run: (tf) => tf.countChat({ model: 'gpt-4o', messages: [undefined] }),
    expect: { error: { code: 'invalid_request', field: 'messages[0]' } },
  },
  {
    name: 'js/not JSON: a toJSON gives the request',
    class: 'types',
    run: (tf) => tf.call('countTokens', { toJSON: () => ({ text: 'Hello world' }) }),
    expect: { tokens: 2 },
  },
  {
    name: 'js/not JSON: a Date is a JSON string, not a request',
    class: 'types',
    run: (tf) => tf.calculateBudget(new Date(0)),
    expect: 'error:invalid_request',
  },
  {
    name: 'js/not JSON: 2^64 is written as an integer beyond int64',
    class: 'numbers',
    run: (tf) => tf.calculateBudget({ contextWindow: 2 ** 64 }),
    expect: { error: { code: 'invalid_request', field: 'contextWindow' } },
  },
  {
    name: 'js/not JSON: 1e21 is written with an exponent',
    class: 'numbers',
    run: (tf) => tf.calculateBudget({ contextWindow: 1e21 }),
    expect: { error: { code: 'invalid_request', field: 'contextWindow' } },
  },
  {
    name: 'js/not JSON: the caller\'s getter throws: its exception, unchanged',
    class: 'types',
    run: (tf) => {
      try {
        tf.calculateBudget({ get model() { throw new Error('the caller\'s own'); } });
      } catch (e) {
        return { propagated: e.name === 'Error' && e.message === 'the caller\'s own' };
      }
      return { propagated: 'nothing thrown' };
    },
    expect: { propagated: true },
  },
  {
    name: 'js/not JSON: the caller\'s getter throws a RangeError: invalid_argument, the instance lives',
    class: 'types',
    run: (tf) => tf.calculateBudget({ get model() { throw new RangeError('the caller\'s own'); } }),
    expect: 'error:invalid_argument',
  },
  {
    name: 'js/not JSON: a Proxy whose trap throws a TypeError: invalid_argument',
    class: 'types',
    // A TypeError from the caller cannot be told from JSON.stringify's own.
    run: (tf) => tf.calculateBudget(new Proxy({}, { ownKeys() { throw new TypeError('trap'); } })),
    expect: 'error:invalid_argument',
  },

  // ---- the typed functions given other JavaScript types --------------------
  badArgument('countTokens(5)', (tf) => tokens(tf.countTokens(5))),
  badArgument('countTokens(null)', (tf) => tokens(tf.countTokens(null))),
  badArgument('countTokens()', (tf) => tokens(tf.countTokens())),
  badArgument('countTokens(new String)', (tf) => tokens(tf.countTokens(new String('x')))),
  badArgument('countTokens(Symbol)', (tf) => tokens(tf.countTokens(Symbol('x')))),
  badArgument('countTokens with options a string', (tf) => tokens(tf.countTokens('x', 'o200k_base'))),
  badArgument('countTokens with encoding 5', (tf) => tokens(tf.countTokens('x', { encoding: 5 }))),
  badArgument('countTokens with model null', (tf) => tokens(tf.countTokens('x', { model: null }))),
  badArgument('countTokens with a calibration string', (tf) => tokens(tf.countTokens('x', { calibration: 'x' })), false),
  badArgument('encode([\'a\'])', (tf) => ({ ids: tf.encode(['a']) })),
  badArgument('decode(\'abc\')', (tf) => ({ text: tf.decode('abc') })),
  badArgument('decode a sparse array', (tf) => ({ text: tf.decode(new Array(3)) })),
  badArgument('decode [0, , 1]', (tf) => ({ text: tf.decode([0, , 1]) })),
  badArgument('decode [NaN]', (tf) => ({ text: tf.decode([NaN]) })),
  badArgument('decode [-1]', (tf) => ({ text: tf.decode([-1]) })),
  badArgument('decode [2^32]', (tf) => ({ text: tf.decode([2 ** 32]) })),
  badArgument('decode [1.5]', (tf) => ({ text: tf.decode([1.5]) })),
  badArgument('decode [\'1\']', (tf) => ({ text: tf.decode(['1']) })),
  badArgument('decode [null]', (tf) => ({ text: tf.decode([null]) })),
  badArgument('decode [1n]', (tf) => ({ text: tf.decode([1n]) })),
  badArgument('decode an Int32Array with -1', (tf) => ({ text: tf.decode(new Int32Array([-1])) })),
  badArgument('decode a Float64Array', (tf) => ({ text: tf.decode(new Float64Array([1])) })),
  badArgument('withinLimit NaN', (tf) => tf.withinLimit('x', NaN)),
  badArgument('withinLimit Infinity', (tf) => tf.withinLimit('x', Infinity)),
  badArgument('withinLimit -1', (tf) => tf.withinLimit('x', -1)),
  badArgument('withinLimit 2^31', (tf) => tf.withinLimit('x', 2 ** 31)),
  badArgument('withinLimit 1.5', (tf) => tf.withinLimit('x', 1.5)),
  badArgument('withinLimit \'5\'', (tf) => tf.withinLimit('x', '5')),
  badArgument('withinLimit 5n', (tf) => tf.withinLimit('x', 5n)),
  badArgument('truncate NaN', (tf) => tf.truncate('x', NaN)),
  badArgument('truncate keep "middle"', (tf) => tf.truncate('x', 1, { keep: 'middle' })),
  badArgument('chunk maxTokens -1', (tf) => tf.chunk('x', -1), false),
  badArgument('liveCounter text 5', (tf) => tf.liveCounter(undefined, 5)),
  badArgument('liveCounter.edit at NaN', (tf) => tokens(tf.liveCounter(undefined, 'abc').edit(NaN, 0, 'x'))),
  badArgument('liveCounter.edit deleteCount -1', (tf) => tokens(tf.liveCounter(undefined, 'abc').edit(0, -1, 'x'))),
  badArgument('liveCounter.edit insert 5', (tf) => tokens(tf.liveCounter(undefined, 'abc').edit(0, 0, 5))),
  badArgument('liveCounter.update(null)', (tf) => tokens(tf.liveCounter(undefined, 'abc').update(null))),
  badArgument('calculateBudget()', (tf) => tf.calculateBudget(), false),
  badArgument('calculateBudget(null)', (tf) => tf.calculateBudget(null), false),
  badArgument('countChat([])', (tf) => tf.countChat([]), false),
  badArgument('countChat a JSON string', (tf) => tf.countChat('{"model": "gpt-4o"}'), false),
  badArgument('planInjection a function', (tf) => tf.planInjection(() => ({})), false),
  badArgument('call(5, {})', (tf) => tf.call(5, {}), false),
  {
    name: 'js/argument: a disposed counter is invalid_handle',
    class: 'types',
    lite: true,
    run: (tf) => {
      const c = tf.liveCounter(undefined, 'Hello');
      c.dispose();
      c.dispose();
      return tokens(c.count());
    },
    expect: 'error:invalid_handle',
  },
  {
    name: 'js/numbers: withinLimit -0 is 0',
    class: 'numbers',
    lite: true,
    run: (tf) => tf.withinLimit('x', -0),
    expect: { within: false, tokens: 1 },
  },
  {
    name: 'js/numbers: withinLimit 2^31-1',
    class: 'numbers',
    lite: true,
    run: (tf) => tf.withinLimit('Hello world', 2 ** 31 - 1),
    expect: { within: true, tokens: 2 },
  },

  // ---- empty everything, as JavaScript writes it ------------------------------
  {
    name: 'js/empty: the typed functions with empty text and no ids',
    class: 'empty',
    lite: true,
    run: (tf) => ({
      tokens: tf.countTokens(''),
      ids: tf.encode(''),
      text: tf.decode([]),
      typed: tf.decode(new Uint32Array(0)),
      within: tf.withinLimit('', 0).within,
      truncated: tf.truncate('', 0).text,
      live: tf.liveCounter().count(),
      liveText: tf.liveCounter().text(),
    }),
    expect: { tokens: 0, ids: [], text: '', typed: '', within: true, truncated: '', live: 0, liveText: '' },
  },
  {
    name: 'js/empty: call() without a request is {}',
    class: 'empty',
    run: (tf) => tf.call('countTokens'),
    expect: { tokens: 0 },
  },
  {
    name: 'js/empty: chunk of nothing, models() and encodings() without arguments',
    class: 'empty',
    run: (tf) => ({ chunks: tf.chunk('', 1).chunks, models: tf.models().models.length > 0, encodings: tf.encodings().length }),
    expect: { chunks: [], models: true, encodings: 4 },
  },
];
