// The open-weight tokenizers the package ships (scripts/tokenizers.json,
// converted into dist/tables at make js), checked the same way in every
// runtime: in Node (tokenizer.test.mjs), Deno and Bun (runtime-check.mjs),
// headless Chromium (browser/shipped.html) and workerd (workerd/worker.mjs).
// Each table, loaded under its registry name, must count every text as the
// model's own tokenizer.json does, loaded in Node (runtimes.test.mjs), and
// make its model's counts exact.

/**
 * shippedCounts loads each shipped tokenizer under its registry name, from
 * source(t), on a fresh instance and counts the texts with it.
 * @param {(options: object) => Promise<any>} init the entry's init
 * @param {object[]} shipped scripts/tokenizers.json's tokenizers
 * @param {(t: object) => any} source the table or the tokenizer.json of t, as loadTokenizer takes it
 * @param {string[]} texts
 * @returns {Promise<Record<string, { exact: boolean, counts: number[] }>>} by file
 */
export async function shippedCounts(init, shipped, source, texts) {
  const out = {};
  for (const t of shipped) {
    // One instance per tokenizer: Gemma-sized tables add up in one module.
    const tf = await init({ tokenizers: true });
    await tf.loadTokenizer(t.name, await source(t));
    const answer = tf.call('countTokens', { text: 'Hello world', model: t.model });
    out[t.file] = {
      exact: answer.exact === true && answer.encoding === t.name,
      counts: texts.map((text) => tf.countTokens(text, { encoding: t.name })),
    };
  }
  return out;
}

/** The failures of got (the shipped tables' counts) against want (the tokenizer.json files'). */
export function compareShipped(shipped, got, want, texts) {
  const f = [];
  for (const t of shipped) {
    const g = got[t.file];
    const w = want[t.file];
    if (!g || !w) {
      f.push(`${t.file}: not counted`);
      continue;
    }
    if (!g.exact) f.push(`${t.file}: ${t.model} is not exact with the shipped table loaded`);
    const bad = texts.map((_, i) => i).filter((i) => g.counts[i] !== w.counts[i]);
    for (const i of bad.slice(0, 3)) f.push(`${t.file}: ${JSON.stringify(texts[i].slice(0, 60))}: ${g.counts[i]}, the tokenizer.json ${w.counts[i]}`);
    if (bad.length > 3) f.push(`${t.file}: ${bad.length} mismatches in ${texts.length} texts`);
  }
  return f;
}

/** The texts the runtimes count: the shared vectors' texts up to 100,000 characters. */
export const shippedTexts = (vectors) => vectors.tokens.cases.map((c) => c.text).filter((t) => t.length <= 100000);
