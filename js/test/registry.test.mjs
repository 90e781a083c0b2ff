// The model registry and prices through the npm package, in Node: the
// committed OpenAI data is what the pinned gpt-tokenizer generates (the
// drift test of core/registry/openai.json), every OpenAI id gpt-tokenizer
// exports resolves to a row of its own and counts with the encoding
// gpt-tokenizer maps it to, the catalog loads by itself the first time a
// call needs it, and countChat, calculateBudget and priceUsage carry costs
// at the providers' published prices. Run by make test-js (after make js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as gptModels from 'gpt-tokenizer/models';
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { init } from 'tokenfit';
import { openaiModels, text } from '../scripts/openai-models.mjs';

const root = new URL('../../', import.meta.url);

test('core/registry/openai.json is what the pinned gpt-tokenizer generates (else: make generate)', () => {
  assert.equal(readFileSync(new URL('core/registry/openai.json', root), 'utf8'), text(openaiModels()));
});

test("every OpenAI id gpt-tokenizer exports has a row of its own, and gpt-tokenizer's encoding", async () => {
  const tf = await init({});
  const same = { o200k_harmony: 'o200k_base', p50k_edit: 'p50k_base', gpt2: 'r50k_base' };
  const ids = Object.keys(gptModels);
  assert.ok(ids.length >= 200, `${ids.length} ids`);
  for (const id of ids) {
    const { model } = tf.models({ model: id });
    assert.ok(!model.fallback, `${id}: resolved by ${model.resolvedBy}`);
    const enc = modelToEncodingMap[id];
    if (enc) assert.equal(model.encoding, same[enc] || enc, id);
  }
  // An alias is its model's row: gpt-tokenizer exports the same spec for both.
  assert.equal(tf.models({ model: 'daybreak-blue-latest' }).model.id, 'gpt-5.6-sol');
  assert.equal(tf.models({ model: 'daybreak-red-latest' }).model.id, 'gpt-5.6-cyber');
});

test('the catalog loads by itself the first time a call needs it, and lists and filters', async () => {
  const tf = await init({});
  // Built in: no catalog needed.
  assert.equal(tf.countChat({ model: 'gpt-4o', messages: [] }).fallback, undefined);
  const grok = tf.models({ model: 'xai/grok-4' }).model;
  assert.equal(grok.id, 'grok-4');
  assert.equal(grok.contextWindow, 256000);
  // Only the catalog has these: the answer that would fall back loads it.
  const qwen = tf.calculateBudget({ model: 'openrouter/qwen/qwen3-coder' });
  assert.ok(!qwen.fallback && qwen.contextWindow > 8192, JSON.stringify(qwen).slice(0, 200));
  const all = tf.models();
  assert.ok(all.catalog.loaded && all.models.length > 4000 && all.catalog.models === all.models.length);
  assert.deepEqual(all.catalog.sources.map((s) => s.name), ['tokenfit', 'gpt-tokenizer', 'models.dev']);
  const big = tf.models({ provider: 'anthropic', minWindow: 1000000 }).models;
  assert.ok(big.length > 0 && big.every((m) => m.provider === 'anthropic' && m.contextWindow >= 1000000));
  const sonnets = tf.models({ family: 'claude-sonnet' }).models;
  assert.ok(sonnets.length > 0 && sonnets.every((m) => (m.modelFamily || m.id).startsWith('claude-sonnet')));
  const speech = tf.models({ kind: 'speech', provider: 'openai' }).models.map((m) => m.id);
  assert.ok(speech.includes('tts-1') && speech.includes('gpt-4o-mini-tts'), speech.join());
});

test('a budget for a model that takes no chat says what it is', async () => {
  const tf = await init({});
  assert.throws(() => tf.calculateBudget({ model: 'tts-1' }), (e) => e.code === 'invalid_request' && /a speech model/.test(e.message));
  assert.equal(tf.models({ model: 'whisper-1' }).model.kind, 'transcription');
  assert.equal(tf.calculateBudget({ model: 'text-embedding-3-small' }).kind, 'embedding');
});

// Prices: OpenAI's pricing page (gpt-4o $2.50 / $1.25 cached / $10 a
// million), Anthropic's (claude-sonnet-4-5 $3 / $0.30 cache read / $3.75
// cache write / $15).
test('costs: countChat, calculateBudget and priceUsage at the published prices', async () => {
  const tf = await init({});
  const chat = tf.countChat({ model: 'gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'Hello world' }] });
  assert.equal(chat.cost.input, +(chat.total * 2.5e-6).toFixed(8));
  assert.equal(chat.cost.output, 100 * 10e-6);
  assert.equal(chat.cost.price.source, 'models.dev');
  const cached = tf.countChat({ model: 'gpt-4o', cachedTokens: 5, messages: [{ role: 'user', content: 'Hello world' }] });
  assert.equal(cached.cost.tokens.cachedInput, 5);
  assert.equal(cached.cost.tokens.output, tf.models({ model: 'gpt-4o' }).model.responseReserve);
  const budget = tf.calculateBudget({ model: 'claude-sonnet-4-5', sections: { system: 'Be brief.' } });
  assert.ok(Math.abs(budget.cost.output - budget.responseReserve * 15e-6) < 1e-9);
  const anthropic = tf.priceUsage({ model: 'claude-sonnet-4-5', usage: { input_tokens: 50, cache_creation_input_tokens: 2000, cache_read_input_tokens: 8000, output_tokens: 500 } });
  assert.ok(Math.abs(anthropic.cost.total - (50 * 3 + 8000 * 0.3 + 2000 * 3.75 + 500 * 15) / 1e6) < 1e-9, JSON.stringify(anthropic));
  const openai = tf.priceUsage({ model: 'gpt-4o', usage: { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 400 } } });
  assert.deepEqual(openai.cost.tokens, { input: 600, cachedInput: 400, output: 10 });
  assert.equal(tf.priceUsage({ model: 'acme-9', usage: { prompt_tokens: 1 } }).cost, undefined);
  assert.throws(() => tf.priceUsage({ model: 'gpt-4o', usage: { prompt_tokens: -1 } }), (e) => e.code === 'invalid_request' && e.field === 'usage.prompt_tokens');
});

test('loadCatalog loads from a source, and init({ catalog }) at start', async () => {
  const tf = await init({ catalog: true });
  assert.equal(tf.models({}).catalog.loaded, true);
  const other = await init({});
  const info = await other.loadCatalog(new URL('dist/tables/catalog.json', new URL('../', import.meta.url)));
  assert.equal(info.loaded, true);
  await assert.rejects(other.loadCatalog(new TextEncoder().encode('{"models": [{"id": "x"}]}')), (e) => e.code === 'invalid_request');
  assert.equal(other.models({ model: 'xai/grok-4' }).model.id, 'grok-4', 'a bad catalog leaves the loaded one');
});
