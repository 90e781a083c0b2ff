// The move to the module with the tokenizer.json loader (src/upgrade.js),
// checked the same way in Node (upgrade.test.mjs) and in headless Chromium
// (browser/index.html): init() starts tokenfit-nohf.wasm, and the first
// loadTokenizer moves the instance to tokenfit.wasm with what it held.
// Each check returns its failures.

// smallTokenizer is a byte-level tokenizer.json of 260 tokens: the 256
// bytes (GPT-2's byte-to-character table), "ab", "abc" and "Ġa", and one
// added token, <|x|> (core/internal/hf's small, for the same counts).
export function smallTokenizer() {
  const printable = (b) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const vocab = {};
  for (let b = 0, n = 0; b < 256; b++) vocab[printable(b) ? String.fromCharCode(b) : String.fromCharCode(256 + n++)] = b;
  Object.assign(vocab, { ab: 256, abc: 257, 'Ġa': 258 });
  return {
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: true },
    model: { type: 'BPE', vocab, merges: ['Ġ a', 'a b', ['ab', 'c']] },
    added_tokens: [{ id: 259, content: '<|x|>', special: true, normalized: false }],
  };
}

/**
 * upgradeChecks: on the default instance, the state made before the move —
 * two live counters (one last edited, so only the module knew its text), the
 * registry registrations made, the default encoding — answers after it, as do the
 * top-level functions; then two concurrent loadTokenizer calls on a fresh
 * instance share one move.
 * @param tokenfit the package's entry (its init and top-level functions)
 */
export async function upgradeChecks(tokenfit) {
  const f = [];
  const check = (ok, what) => {
    if (!ok) f.push(what);
  };
  try {
    const tf = await tokenfit.init();
    // A page's default init() starts the lean module (it counts at once);
    // a call that needs the full one is refused until tf.ready(), which
    // moves the instance to tokenfit-nohf.wasm. In Node it is there already.
    if (tf.module === 'lite') {
      check(tf.countTokens('Hello world') === 2, 'the lean module counts');
      try {
        tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello world' }] });
        f.push('countChat on the lean module answered');
      } catch (e) {
        check(e.code === 'not_initialized' && /await tf\.ready\(\)/.test(e.message), `countChat before ready(): ${e.code} ${e.message}`);
      }
    }
    await tf.ready();
    check(tf.module === 'wasip1', `module ${tf.module}`);
    const loader = () => {
      try {
        tf.call('loadTokenizer', {});
      } catch (e) {
        return e.code !== 'unknown_operation';
      }
    };
    check(!loader(), 'the default module has the loader');
    const counter = tf.liveCounter(undefined, 'Hello world');
    const edited = tf.liveCounter(undefined, 'Hello');
    edited.edit(5, 0, ' there, world');
    const disposed = tf.liveCounter(undefined, 'gone');
    disposed.dispose();
    // Registrations: one model registered again and again (the move
    // carries the registry they add up to, not each of them), an
    // estimator, a built-in model replaced, and one that fails.
    for (let i = 0; i < 50; i++) tf.registerModels({ models: [{ id: 'upgrade-check', encoding: 'cl100k_base', contextWindow: 2000 + i }] });
    tf.registerModels({ estimators: { acme: { base: 'cl100k_base', ratio: 1.25, errorBound: 0.1 } }, models: [{ id: 'acme-1', estimator: 'acme', contextWindow: 4000 }] });
    tf.registerModels({ models: [{ id: 'gpt-4o-mini', encoding: 'o200k_base', contextWindow: 64000 }] });
    tf.registerModels({ models: [{ id: 'upgrade-check', encoding: 'o200k_base', contextWindow: 1000 }] });
    try {
      tf.registerModels({ models: [{ id: 'bad', encoding: 'o200k_base', contextWindow: 0 }] });
      f.push('a bad registration did not fail');
    } catch (e) {
      check(e.code === 'invalid_request', `a bad registration: ${e.code}`);
    }
    const registry = JSON.stringify(tf.models());
    const before = tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello world' }] }).total;

    const info = await tf.loadTokenizer('small', smallTokenizer());
    check(info.name === 'small' && info.vocabSize === 260, `loadTokenizer: ${JSON.stringify(info)}`);
    check(loader(), 'the module after the move has no loader');
    check(tf.countTokens('abc abc', { encoding: 'small' }) === 4, 'countTokens with the loaded tokenizer');
    check(tokenfit.countTokens('ab<|x|>c', { encoding: 'small' }) === 3, 'the top-level countTokens with the loaded tokenizer');
    check(tokenfit.countTokens('Hello world') === 2, 'the top-level countTokens after the move');
    check(tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello world' }] }).total === before, 'countChat after the move');
    check(tf.encodings().some((e) => e.name === 'o200k_base' && e.loaded), 'o200k_base loaded after the move');

    // Live counters made before the move.
    check(counter.count() === 2, `counter.count() ${counter.count()}`);
    check(counter.update('Hello world, again') === tf.countTokens('Hello world, again'), 'counter.update after the move');
    check(edited.text() === 'Hello there, world', `edited.text() ${JSON.stringify(edited.text())}`);
    check(edited.edit(0, 5, 'Hi') === tf.countTokens('Hi there, world'), 'edited.edit after the move');
    check(edited.text() === 'Hi there, world', 'edited.text() after an edit');
    check(edited.reset('a b c') === tf.countTokens('a b c'), 'edited.reset');
    disposed.dispose();
    const small = tf.liveCounter({ encoding: 'small' }, 'abc');
    check(small.edit(3, 0, ' abc') === 4, 'a live counter on the loaded tokenizer');
    check(tf.countTokens('Hello world', { model: 'upgrade-check' }) === 2 &&
      tf.withinLimit('Hello world', 5, { model: 'upgrade-check' }).encoding === 'o200k_base', 'the registered model after the move');
    check(JSON.stringify(tf.models()) === registry, 'the registry after the move is the one before');

    // Two loads at once on a fresh instance: one move, both tokenizers.
    const two = await tokenfit.init({});
    const answers = await Promise.all([two.loadTokenizer('one', smallTokenizer()), two.loadTokenizer('two', smallTokenizer())]);
    check(answers.every((a) => a.vocabSize === 260), `concurrent: ${JSON.stringify(answers)}`);
    check(two.countTokens('abc', { encoding: 'one' }) === 1 && two.countTokens('abc abc', { encoding: 'two' }) === 4, 'concurrent: both count');
    check(two.countTokens('Hello world') === 2, 'concurrent: o200k_base');
  } catch (e) {
    f.push(`threw ${e && e.code} ${e && e.stack}`);
  }
  return f;
}

/**
 * failedUpgradeChecks: when the module with the loader cannot be had,
 * loadTokenizer is a TokenfitError and the instance keeps answering; a
 * later loadTokenizer tries again.
 * @param tf an instance of tokenfit-nohf.wasm
 * @param {() => void} [restore] makes the module reachable again, if it can be
 */
export async function failedUpgradeChecks(tokenfit, tf, code, restore) {
  const f = [];
  try {
    const live = tf.liveCounter(undefined, 'Hello');
    try {
      await tf.loadTokenizer('small', smallTokenizer());
      f.push('loadTokenizer did not fail');
    } catch (e) {
      if (!(e instanceof tokenfit.TokenfitError) || e.code !== code || !/tokenizer\.json loader/.test(e.message)) f.push(`failed as ${e && e.code}: ${e && e.message}`);
    }
    if (tf.countTokens('Hello world') !== 2) f.push('countTokens after the failure');
    if (live.edit(5, 0, ' world') !== 2) f.push('a live counter after the failure');
    if (tf.calculateBudget({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello world' }] }).model !== 'gpt-4o') f.push('calculateBudget after the failure');
    if (restore) {
      restore();
      const info = await tf.loadTokenizer('small', smallTokenizer());
      if (info.vocabSize !== 260 || tf.countTokens('abc', { encoding: 'small' }) !== 1) f.push('the second loadTokenizer');
      if (live.count() !== 2 || live.edit(0, 5, 'Hi') !== tf.countTokens('Hi world')) f.push('the live counter after the second try');
    }
  } catch (e) {
    f.push(`threw ${e && e.code} ${e && e.stack}`);
  }
  return f;
}
