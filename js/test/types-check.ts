// Compiled (never run) by types.test.mjs with tsc --noEmit: the types let
// every call be written as the README shows it, and refuse misuse.
import {
  init, countTokens, countChat, calculateBudget, planInjection, encode, decode, withinLimit, truncate, chunk,
  calibrate, models, registerModels, encodings, version, liveCounter, loadEncoding, TokenfitError, ENCODINGS,
  providerCounter, type Tokenfit, type ChatAnswer, type Budget, type Plan, type LiveCounter, type ErrorCode,
  type ProviderCount, type FallbackReason,
} from 'tokenfit';
import { createWorker, type TokenfitWorker, type AsyncLiveCounter } from 'tokenfit/worker';
import { createHandler, nodeListener, type HandlerOptions } from 'tokenfit/edge';
import qwen3 from 'tokenfit/tokenizers/qwen3';

async function main(): Promise<void> {
  const edgeOptions: HandlerOptions = { init: { module: {} as WebAssembly.Module }, corsOrigins: ['https://app.example'], token: 't', maxBodyBytes: 1 << 20,
    maxInFlight: 16, maxInFlightBytes: 8 << 20, maxInstanceMemory: 128 << 20 };
  const worker: { fetch: (r: Request) => Promise<Response> } = { fetch: createHandler(edgeOptions) };
  const listener: (req: unknown, res: unknown) => Promise<void> = nodeListener(worker.fetch);
  // @ts-expect-error CORS takes a list of origins
  createHandler({ corsOrigins: 'https://app.example' });
  const tf: Tokenfit = await init();
  const qwen: URL = qwen3();
  const vocab: number = (await tf.loadTokenizer('hf:Qwen/Qwen3-8B', qwen)).vocabSize;
  await init({ lite: true, encodings: ['o200k_base'], tables: 'https://cdn.example/tables/' });
  const ready: Promise<void> = (await init({ savedImage: false })).ready();
  await ready;
  await init({ module: new URL('https://cdn.example/tokenfit.wasm'), encodings: { cl100k_base: new Uint8Array(0) } });
  await init({ module: {} as WebAssembly.Module });
  const n: number = tf.countTokens('Hello', { model: 'gpt-4o' });
  const m: number = countTokens('Hello', { encoding: 'cl100k_base' });
  const chat: ChatAnswer = countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tool_choice: 'auto' });
  const b: Budget = calculateBudget({ model: 'gpt-4o', sections: { system: 'Be brief.', knowledge: ['a', 'b'], current: { tokens: 5 } } });
  const alert: 'none' | 'warning' | 'critical' = b.alert;
  const p: Plan = planInjection({ budget: 500, items: [{ id: 'x', activation: 0.8, kind: 'constraint' }], model: 'gpt-4o' });
  const tier: 'full' | 'summary' | 'nameOnly' | 'omitted' = p.items[0].tier;
  const ids: number[] = encode('Hello');
  const text: string = decode(ids) + decode(new Uint32Array(ids));
  const within: boolean = withinLimit('Hello', 10).within;
  const cut: string = truncate('Hello', 1, { keep: 'end' }).text;
  const chunks = chunk('Hello', 1, { overlap: 0 }).chunks.map((c) => c.text);
  const cal = calibrate({ model: 'claude-sonnet-4-5', estimate: 100, reported: 120 }).calibration;
  countTokens('x', { model: 'claude-sonnet-4-5', calibration: cal });
  const all = models().models ?? [];
  registerModels({ models: [{ id: 'mine', contextWindow: 8000, encoding: 'cl100k_base' }] });
  const loaded: boolean = encodings()[0].loaded;
  const v: string = version();
  const lc: LiveCounter = liveCounter({ encoding: 'o200k_base' }, 'Hello');
  const c: number = lc.edit(5, 0, ' world') + lc.update('x') + lc.update('xy', 2) + lc.reset('y') + lc.count();
  lc.dispose();
  await loadEncoding('p50k_base');
  const bytes: number = tf.memoryBytes();
  const { countTokens: destructured } = tf;
  destructured('x');
  try {
    countTokens('x');
  } catch (e) {
    if (e instanceof TokenfitError) {
      const code: ErrorCode = e.code;
      void code;
    }
  }
  const w: TokenfitWorker = await createWorker({ lite: true });
  const wn: number = await w.countTokens('Hello');
  const wl: AsyncLiveCounter = await w.liveCounter({ encoding: 'o200k_base' });
  const wc: number = await wl.edit(0, 0, 'x');
  w.terminate();

  // The provider counter, as the README uses it: the request messages.create
  // takes, with the fetch of the platform or a worker's instance.
  const counter = providerCounter({ fetch, apiKey: 'sk-ant-…', tf, timeoutMs: 2000, headers: { 'anthropic-beta': 'x' } });
  providerCounter({ fetch: async () => ({ status: 200, text: async () => '{"input_tokens": 1}' }), apiKey: 'k', tf: w, baseURL: new URL('https://gw.example/') });
  const pc: ProviderCount = await counter.countChat({
    model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'Be brief.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    tools: [{ name: 'get_weather', input_schema: { type: 'object' } }], tool_choice: { type: 'any' }, calibration: cal,
  });
  const upper: number = pc.upperBound + pc.estimate;
  if (pc.source === 'estimate') {
    const why: FallbackReason['code'] = pc.fallbackReason.code;
    const inexact: false = pc.exact;
    void [why, inexact];
  } else {
    const exact: true = pc.exact;
    void exact;
  }
  const where: string = counter.endpoint;
  // OpenAI's input-token count takes a Responses request as responses.create does.
  const oc = providerCounter({ provider: 'openai', fetch, apiKey: 'sk-…', tf, headers: { 'OpenAI-Project': 'proj_1' } });
  const opc: ProviderCount = await oc.countChat({
    model: 'gpt-5', instructions: 'Be brief.', input: [{ role: 'user', content: 'Hi' }], store: false,
    text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } },
  });
  const responsesAnswer: ChatAnswer = countChat({ model: 'gpt-5', input: 'Hi' });
  const structured: number = countChat({
    model: 'gpt-4o', api: 'responses', messages: [{ role: 'user', content: 'Hi' }],
    response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
  }).responseFormat;
  void [opc, responsesAnswer, structured];

  // Misuse the types refuse.
  // @ts-expect-error the counter needs an API key
  providerCounter({ fetch });
  // @ts-expect-error the providers are anthropic, gemini and openai
  providerCounter({ provider: 'azure', fetch, apiKey: 'k' });
  // @ts-expect-error the counter takes Anthropic's roles
  counter.countChat({ model: 'claude-sonnet-4-5', messages: [{ role: 'system', content: 'x' }] });
  // @ts-expect-error a provider's count is a promise
  const sync: ProviderCount = counter.countChat({ model: 'claude-sonnet-4-5', messages: [] });
  // @ts-expect-error the text must be a string
  countTokens(42);
  // @ts-expect-error an unknown encoding name for loading
  await loadEncoding('gpt2');
  // @ts-expect-error keep is "start" or "end"
  truncate('x', 1, { keep: 'middle' });
  // @ts-expect-error messages are required
  countChat({ model: 'gpt-4o' });
  // @ts-expect-error a worker call answers a promise
  const wrong: number = w.countTokens('x');
  void [n, m, alert, tier, text, within, cut, chunks, all, loaded, v, c, wn, wc, wrong, bytes, ENCODINGS, upper, where, sync];
}
void main;
