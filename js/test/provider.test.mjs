// The provider counter (providerCounter, src/provider.js) against a server
// on 127.0.0.1 that speaks Anthropic's count endpoint as documented: it
// checks each request (method, path, headers, the JSON body's fields) and
// answers {"input_tokens": N}, or one of the API's errors
// ({"type": "error", "error": {"type", "message"}}), or too slowly, or
// nonsense. Every failure must come back as the local estimate with its
// reason, never as an exception. Run by make test-js (after make js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { init, providerCounter, countChat, TokenfitError } from 'tokenfit';
import { createWorker } from 'tokenfit/worker';

const KEY = 'sk-ant-test-key';
const PATH = '/v1/messages/count_tokens';
const SENT = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'cache_control',
  'mcp_servers', 'context_management'];

// ---- the server ---------------------------------------------------------------

const seen = []; // every request the server read: { scenario, method, path, headers, body }
const closed = new Map(); // scenario → a promise resolved when a held response's connection closes

function anthropicError(res, status, type, message, extra = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test', ...extra });
  res.end(JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_test' }));
}

// check returns what is wrong with a request, as Anthropic's API would
// refuse it (or '' when nothing is).
function check(req, body) {
  if (req.method !== 'POST') return `method ${req.method}`;
  if (req.headers['x-api-key'] === undefined) return 'x-api-key header is required';
  if (req.headers['anthropic-version'] !== '2023-06-01') return `anthropic-version ${req.headers['anthropic-version']}`;
  if (req.headers['content-type'] !== 'application/json') return `content-type ${req.headers['content-type']}`;
  let b;
  try {
    b = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  for (const k of Object.keys(b)) if (!SENT.includes(k)) return `${k}: Extra inputs are not permitted`;
  if (typeof b.model !== 'string' || !Array.isArray(b.messages)) return 'model and messages are required';
  return '';
}

const scenarios = {
  ok(req, res) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_test' });
    res.end(JSON.stringify({ input_tokens: 14 }));
  },
  'bad-request': (req, res) => anthropicError(res, 400, 'invalid_request_error', 'messages: at least one message is required'),
  'rate-limited': (req, res) => anthropicError(res, 429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '30' }),
  'api-error': (req, res) => anthropicError(res, 500, 'api_error', 'An unexpected error has occurred internal to Anthropic\'s systems.'),
  overloaded: (req, res) => anthropicError(res, 529, 'overloaded_error', 'Overloaded'),
  'bad-gateway'(req, res) {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body>502 Bad Gateway</body></html>');
  },
  'not-json'(req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('input_tokens: 14');
  },
  'string-count': (req, res) => res.end(JSON.stringify({ input_tokens: '14' })),
  'negative-count': (req, res) => res.end(JSON.stringify({ input_tokens: -1 })),
  'fractional-count': (req, res) => res.end(JSON.stringify({ input_tokens: 1.5 })),
  'no-count': (req, res) => res.end(JSON.stringify({ tokens: 14 })),
  'array-answer': (req, res) => res.end(JSON.stringify([14])),
  'slow-headers'(req, res) {
    // Never answers: the counter must give up, and abort the request.
    closed.set('slow-headers', new Promise((resolve) => res.on('close', resolve)));
  },
  'slow-body'(req, res) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"input_tok');
    closed.set('slow-body', new Promise((resolve) => res.on('close', resolve)));
  },
  redirect(req, res) {
    res.writeHead(307, { location: `${elsewhere}${PATH}` });
    res.end();
  },
};

let server;
let origin;
let elsewhere; // a second server a redirect points to: it must never be asked
let elsewhereHits = 0;
let elsewhereServer;
let refused; // a port nothing listens on

function listen(handler) {
  return new Promise((resolve) => {
    const s = createServer(handler);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

before(async () => {
  server = await listen((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const [, scenario, ...rest] = req.url.split('/');
      seen.push({ scenario, method: req.method, path: '/' + rest.join('/'), headers: req.headers, body });
      if ('/' + rest.join('/') !== PATH) return anthropicError(res, 404, 'not_found_error', 'Not found');
      const wrong = check(req, body);
      if (wrong) return anthropicError(res, 400, 'invalid_request_error', wrong);
      if (req.headers['x-api-key'] !== KEY) return anthropicError(res, 401, 'authentication_error', 'invalid x-api-key');
      scenarios[scenario](req, res);
    });
  });
  origin = `http://127.0.0.1:${server.address().port}`;
  elsewhereServer = await listen((req, res) => {
    elsewhereHits++;
    res.end(JSON.stringify({ input_tokens: 1 }));
  });
  elsewhere = `http://127.0.0.1:${elsewhereServer.address().port}`;
  const s = await listen(() => {});
  refused = `http://127.0.0.1:${s.address().port}`;
  await new Promise((resolve) => s.close(resolve));
});

after(() => {
  server.closeAllConnections();
  server.close();
  elsewhereServer.close();
});

// ---- requests -------------------------------------------------------------------

// A conversation with a tool call and its result, as messages.create takes it
// (max_tokens and temperature included: the counter must not send them).
const request = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  temperature: 0.2,
  system: 'You are a weather assistant. Answer in one sentence.',
  messages: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18 °C, light rain' }, { type: 'text', text: 'And tomorrow?' }] },
  ],
  tools: [{
    name: 'get_weather', description: 'The current weather in a city.',
    input_schema: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] },
  }],
  tool_choice: { type: 'auto' },
};

// The same request in OpenAI's shape, as the local estimate counts it.
const translated = {
  model: 'claude-sonnet-4-5',
  messages: [
    { role: 'system', content: 'You are a weather assistant. Answer in one sentence.' },
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }], tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'toolu_01', content: '18 °C, light rain' },
    { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', description: 'The current weather in a city.', parameters: request.tools[0].input_schema } }],
  tool_choice: 'auto',
};

const counter = (scenario, options = {}) => providerCounter({ fetch, apiKey: KEY, baseURL: `${origin}/${scenario}`, timeoutMs: 2000, ...options });

let tf;

test('before init(), a counter without tf throws not_initialized and sends nothing', async () => {
  let calls = 0;
  const c = providerCounter({ fetch: async () => calls++, apiKey: KEY });
  await assert.rejects(c.countChat(request), (e) => e instanceof TokenfitError && e.code === 'not_initialized');
  assert.equal(calls, 0);
  tf = await init();
});

test('the provider answers: its count, exact, the request exactly as Anthropic documents it', async (t) => {
  const before = seen.length;
  const t0 = performance.now();
  const got = await counter('ok', { tf }).countChat(request);
  const ms = performance.now() - t0;
  const local = tf.countChat(translated);
  assert.deepEqual(got, { tokens: 14, upperBound: 14, exact: true, source: 'provider', model: 'claude-sonnet-4-5', estimate: local.total });
  assert.equal(seen.length, before + 1, 'one request, no retries');
  const r = seen.at(-1);
  assert.equal(r.method, 'POST');
  assert.equal(r.path, PATH);
  assert.equal(r.headers['x-api-key'], KEY);
  assert.equal(r.headers['anthropic-version'], '2023-06-01');
  assert.equal(r.headers['content-type'], 'application/json');
  const { max_tokens: _m, temperature: _t, ...sent } = request;
  assert.deepEqual(JSON.parse(r.body), sent, 'the count fields, and nothing else');
  // What a count costs: warm round trips to this server, and the counter's
  // own work (the estimate included) with a fetch that answers at once.
  const median = async (c, n) => {
    const ms = [];
    for (let i = 0; i < 20; i++) await c.countChat(request); // warm
    for (let i = 0; i < n; i++) {
      const t1 = performance.now();
      await c.countChat(request);
      ms.push(performance.now() - t1);
    }
    return ms.sort((a, b) => a - b)[n >> 1];
  };
  const warm = await median(counter('ok', { tf }), 50);
  const own = await median(providerCounter({ fetch: async () => new Response('{"input_tokens": 14}'), apiKey: KEY, tf }), 200);
  t.diagnostic(`first count (Node loads its fetch) ${ms.toFixed(1)} ms; warm round trip on 127.0.0.1, median ${warm.toFixed(2)} ms; ` +
    `the counter's own work with an instant fetch, median ${(own * 1000).toFixed(0)} µs`);
});

test('the default base URL is Anthropic\'s; baseURL may carry a path; extra headers are sent, the key stays the counter\'s', async () => {
  let url;
  let init_;
  const c = providerCounter({
    fetch: async (u, i) => {
      url = u;
      init_ = i;
      return new Response('{"input_tokens": 3}');
    },
    apiKey: KEY, tf, headers: { 'Anthropic-Beta': 'token-counting-2024-11-01', 'X-API-Key': 'not this one' },
  });
  assert.equal(c.endpoint, 'https://api.anthropic.com/v1/messages/count_tokens');
  assert.equal((await c.countChat({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Hi' }] })).tokens, 3);
  assert.equal(url, c.endpoint);
  assert.equal(init_.method, 'POST');
  assert.equal(init_.redirect, 'manual');
  assert.ok(init_.signal instanceof AbortSignal);
  assert.deepEqual(init_.headers, { 'anthropic-beta': 'token-counting-2024-11-01', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
  assert.equal(providerCounter({ fetch, apiKey: KEY, baseURL: 'https://gw.example/anthropic/' }).endpoint, 'https://gw.example/anthropic/v1/messages/count_tokens');
});

// Each failure: the scenario, what the reason must hold.
for (const [scenario, want, options] of [
  ['bad-request', { code: 'http', status: 400, type: 'invalid_request_error' }],
  ['ok', { code: 'http', status: 401, type: 'authentication_error' }, { apiKey: 'sk-ant-wrong' }],
  ['rate-limited', { code: 'http', status: 429, type: 'rate_limit_error' }],
  ['api-error', { code: 'http', status: 500, type: 'api_error' }],
  ['overloaded', { code: 'http', status: 529, type: 'overloaded_error' }],
  ['bad-gateway', { code: 'http', status: 502 }],
  ['not-json', { code: 'malformed', status: 200 }],
  ['string-count', { code: 'malformed', status: 200 }],
  ['negative-count', { code: 'malformed', status: 200 }],
  ['fractional-count', { code: 'malformed', status: 200 }],
  ['no-count', { code: 'malformed', status: 200 }],
  ['array-answer', { code: 'malformed', status: 200 }],
  ['redirect', { code: 'redirect', status: 307 }],
]) {
  test(`${scenario}${options ? ' (wrong key)' : ''}: the local estimate answers, saying why (${want.code}${want.status ? ' ' + want.status : ''})`, async () => {
    const before = seen.length;
    const got = await counter(scenario, { tf, ...options }).countChat(request);
    const local = tf.countChat(translated);
    assert.equal(got.source, 'estimate');
    assert.equal(got.exact, false);
    assert.equal(got.tokens, local.total);
    assert.equal(got.estimate, local.total);
    assert.equal(got.upperBound, local.upperBound);
    assert.ok(got.upperBound > got.tokens, 'an estimate for Claude carries its error bound');
    assert.equal(got.model, 'claude-sonnet-4-5');
    const { message, ...reason } = got.fallbackReason;
    assert.deepEqual(reason, want);
    assert.equal(typeof message, 'string');
    if (want.type) assert.ok(message.includes(want.type), message);
    assert.equal(seen.length, before + 1, 'one request, no retries');
  });
}

test('a redirect is not followed: the key never reaches another server', async () => {
  await counter('redirect', { tf }).countChat(request);
  assert.equal(elsewhereHits, 0);
});

for (const scenario of ['slow-headers', 'slow-body']) {
  test(`${scenario}: past timeoutMs the estimate answers, and the request is aborted`, async (t) => {
    const timeoutMs = 200;
    const t0 = performance.now();
    const got = await counter(scenario, { tf, timeoutMs }).countChat(request);
    const ms = performance.now() - t0;
    assert.equal(got.source, 'estimate');
    assert.equal(got.fallbackReason.code, 'timeout');
    assert.match(got.fallbackReason.message, /200 ms/);
    assert.ok(ms >= timeoutMs - 5 && ms < timeoutMs + 300, `answered after ${ms.toFixed(0)} ms`);
    const abort = closed.get(scenario);
    assert.ok(abort, 'the server saw the request');
    await Promise.race([abort, new Promise((_, reject) => setTimeout(() => reject(new Error('the request was not aborted')), 1000))]);
    t.diagnostic(`${scenario}: estimate after ${ms.toFixed(0)} ms (timeoutMs ${timeoutMs})`);
  });
}

test('a fetch that ignores the abort signal still gives way at timeoutMs', async () => {
  const c = providerCounter({ fetch: () => new Promise(() => {}), apiKey: KEY, tf, timeoutMs: 100 });
  const t0 = performance.now();
  const got = await c.countChat(request);
  assert.equal(got.fallbackReason.code, 'timeout');
  assert.ok(performance.now() - t0 < 400);
});

test('connection refused, a fetch that throws, an answer that is no Response: network or malformed, never an exception', async () => {
  const refusedAnswer = await counter('', { tf, baseURL: refused }).countChat(request);
  assert.equal(refusedAnswer.fallbackReason.code, 'network');
  assert.match(refusedAnswer.fallbackReason.message, /ECONNREFUSED/);
  const throwing = providerCounter({ fetch: () => { throw new TypeError('offline'); }, apiKey: KEY, tf });
  assert.deepEqual((await throwing.countChat(request)).fallbackReason, { code: 'network', message: 'the request failed: offline' });
  const odd = providerCounter({ fetch: async () => ({ input_tokens: 14 }), apiKey: KEY, tf });
  assert.equal((await odd.countChat(request)).fallbackReason.code, 'malformed');
});

test('the local estimate: the request in OpenAI\'s shape; blocks of every kind count and never throw', async () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const rich = {
    model: 'claude-opus-4-5',
    system: [{ type: 'text', text: 'You read documents.', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A short document.' }, title: 'Doc' },
        { type: 'text', text: 'Summarize both.' },
      ] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'They want a summary.', signature: 'sig' }, { type: 'tool_use', id: 't1', name: 'search', input: { q: 'x' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'found' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] }] },
    ],
    tools: [
      { name: 'search', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    ],
    tool_choice: { type: 'tool', name: 'search' },
  };
  const got = await providerCounter({ fetch: async () => { throw new Error('down'); }, apiKey: KEY, tf }).countChat(rich);
  assert.equal(got.source, 'estimate');
  assert.ok(got.tokens > 100 && got.upperBound > got.tokens, JSON.stringify(got));
  // Without a tool, a block or an image, the estimate is smaller.
  const poorer = { ...rich, tools: rich.tools.slice(0, 1), messages: rich.messages.slice(1) };
  const less = await providerCounter({ fetch: async () => { throw new Error('down'); }, apiKey: KEY, tf }).countChat(poorer);
  assert.ok(less.tokens < got.tokens);
  // Without tf, the first instance init() made estimates.
  const first = await providerCounter({ fetch: async () => { throw new Error('down'); }, apiKey: KEY }).countChat(request);
  assert.equal(first.tokens, countChat(translated).total);
});

test('a calibration in the request scales the fallback, is never sent, and the pair stays uncalibrated', async () => {
  // The provider once billed 30 % more than the estimate.
  const plain = tf.countChat(translated).total;
  const { calibration } = tf.calibrate({ model: 'claude-sonnet-4-5', estimate: plain, reported: Math.round(plain * 1.3) });
  const calibrated = tf.countChat({ ...translated, calibration });
  assert.ok(calibrated.total > plain);
  const before = seen.length;
  const down = await counter('overloaded', { tf }).countChat({ ...request, calibration });
  assert.equal(down.source, 'estimate');
  assert.equal(down.tokens, calibrated.total);
  assert.equal(down.upperBound, calibrated.upperBound);
  assert.equal(down.estimate, plain, 'the pair for calibrate is uncalibrated');
  const up = await counter('ok', { tf }).countChat({ ...request, calibration });
  assert.deepEqual([up.source, up.tokens, up.estimate], ['provider', 14, plain]);
  assert.ok(seen.slice(before).every((r) => !('calibration' in JSON.parse(r.body))), 'calibration is tokenfit\'s own');
});

test('a worker instance estimates too', async () => {
  const w = await createWorker();
  try {
    const got = await counter('overloaded', { tf: w }).countChat(request);
    assert.equal(got.tokens, tf.countChat(translated).total);
    assert.equal(got.fallbackReason.status, 529);
  } finally {
    w.terminate();
  }
});

test('concurrent counts: one request each, each answered', async () => {
  const before = seen.length;
  const c = counter('ok', { tf });
  const all = await Promise.all(Array.from({ length: 8 }, () => c.countChat(request)));
  assert.ok(all.every((a) => a.source === 'provider' && a.tokens === 14));
  assert.equal(seen.length, before + 8);
});

test('bad options and bad requests throw invalid_argument, and nothing is sent', async () => {
  let calls = 0;
  const spy = async () => {
    calls++;
    return new Response('{"input_tokens": 1}');
  };
  const bad = (options, field) => assert.throws(() => providerCounter(options), (e) => {
    assert.ok(e instanceof TokenfitError, String(e));
    assert.equal(e.code, 'invalid_argument');
    assert.equal(e.field, field, e.message);
    assert.match(e.message, /^tokenfit: providerCounter: /);
    return true;
  });
  assert.throws(() => providerCounter(), (e) => e.code === 'invalid_argument');
  bad({ apiKey: KEY }, 'fetch');
  bad({ fetch: 'https://api.anthropic.com', apiKey: KEY }, 'fetch');
  bad({ fetch: spy }, 'apiKey');
  bad({ fetch: spy, apiKey: '' }, 'apiKey');
  for (const timeoutMs of [0, -1, NaN, Infinity, '5000', 2 ** 31]) bad({ fetch: spy, apiKey: KEY, timeoutMs }, 'timeoutMs');
  for (const baseURL of ['api.anthropic.com', 'ftp://api.anthropic.com', 'https://api.anthropic.com/?k=1', 42]) bad({ fetch: spy, apiKey: KEY, baseURL }, 'baseURL');
  bad({ fetch: spy, apiKey: KEY, anthropicVersion: '' }, 'anthropicVersion');
  bad({ fetch: spy, apiKey: KEY, headers: { 'anthropic-beta': 1 } }, 'headers');
  bad({ fetch: spy, apiKey: KEY, tf: {} }, 'tf');

  const c = providerCounter({ fetch: spy, apiKey: KEY, tf });
  for (const [req, field] of [[undefined], ['hi'], [{ messages: [] }, 'model'], [{ model: 'claude-haiku-4-5' }, 'messages'],
    [{ model: 'claude-haiku-4-5', messages: [], thinking: { budget_tokens: 10n } }]]) {
    await assert.rejects(c.countChat(req), (e) => e instanceof TokenfitError && e.code === 'invalid_argument' && e.field === field);
  }
  // A request the estimate refuses (an unknown role) is the caller's, not the provider's.
  await assert.rejects(c.countChat({ model: 'claude-haiku-4-5', messages: [{ role: 'robot', content: 'hi' }] }),
    (e) => e.code === 'invalid_request' && /providerCounter\.countChat: the local estimate refused/.test(e.message));
  assert.equal(calls, 0);
});

test('the key never leaves in a message: header characters and baseURL refused unquoted, fetch errors and answers redacted', async () => {
  const SECRET = 'sk-ant-secret-0123456789';
  const TOKEN = 'tok-0123456789abcdef';
  let calls = 0;
  const spy = async () => {
    calls++;
    return new Response('{"input_tokens": 1}');
  };
  const refused = (options, field) => assert.throws(() => providerCounter({ fetch: spy, apiKey: SECRET, tf, ...options }), (e) => {
    assert.ok(e instanceof TokenfitError, String(e));
    assert.equal(e.code, 'invalid_argument');
    assert.equal(e.field, field, e.message);
    assert.ok(!e.message.includes(SECRET) && !e.message.includes(TOKEN), e.message);
    return true;
  });
  for (const bad of ['\n', '\r\n', '\0', '\x7f', '\u2028']) refused({ apiKey: `${SECRET}${bad}` }, 'apiKey');
  refused({ headers: { authorization: `Bearer ${TOKEN}\r\nX-Evil: 1` } }, 'headers');
  refused({ headers: { 'x-session': 42 } }, 'headers');
  refused({ headers: { 'bad name': 'x' } }, 'headers');
  refused({ anthropicVersion: '2023-06-01\n' }, 'anthropicVersion');
  for (const baseURL of ['https://api.anthropic.com@evil.example', `https://u:${SECRET}@api.anthropic.com`, `https://api.anthropic.com/?key=${SECRET}`,
    `https://api.anthropic.com/v1#${SECRET}`, `no url ${SECRET}`]) {
    refused({ baseURL }, 'baseURL');
  }
  assert.equal(calls, 0, 'nothing was sent');

  // Whatever comes back quoting the key or a secret header is redacted.
  const echo = (reply) => providerCounter({ fetch: reply, apiKey: SECRET, tf, headers: { authorization: `Bearer ${TOKEN}` } });
  const reasons = [
    await echo((url, init) => { throw new TypeError(`invalid headers ${JSON.stringify(init.headers)}`); }).countChat(request),
    await echo(() => { throw new TypeError('fetch failed', { cause: { code: `E_${SECRET}` } }); }).countChat(request),
    await echo(async () => new Response(JSON.stringify({ type: 'error', error: { type: `t ${TOKEN}`, message: `bad key ${SECRET}` } }), { status: 401 })).countChat(request),
    await echo(async () => new Response(`no JSON, key ${SECRET}`)).countChat(request),
    await echo(async () => ({ status: 200, text: async () => { throw new Error(`read ${SECRET}`); } })).countChat(request),
  ].map((a) => a.fallbackReason);
  for (const r of reasons) {
    const all = JSON.stringify(r);
    assert.ok(!all.includes(SECRET) && !all.includes(TOKEN), all);
    assert.match(all, /\[redacted\]/);
  }
});

test('never called unless configured: counting, chat counts and budgets make no request', async () => {
  const real = globalThis.fetch;
  let calls = 0;
  globalThis.fetch = async (...args) => {
    calls++;
    return real(...args);
  };
  try {
    const fresh = await init({});
    for (const model of ['claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4o']) {
      fresh.countTokens('Hello world', { model });
      fresh.countChat({ model, messages: [{ role: 'user', content: 'Hello world' }] });
      fresh.calculateBudget({ model, history: [{ role: 'user', content: 'Hello world' }] });
    }
    providerCounter({ fetch: globalThis.fetch, apiKey: KEY, tf: fresh }); // made, never asked
    assert.equal(calls, 0);
  } finally {
    globalThis.fetch = real;
  }
});

// ---- Gemini ------------------------------------------------------------------------

// A Gemini generateContent request (tokenfit's model beside it) and what
// its countTokens endpoint is sent, through a fetch that plays the API.
const gemini = {
  model: 'gemini-2.5-pro',
  systemInstruction: { parts: [{ text: 'You are a weather assistant.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
    { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 18 } } }] },
  ],
  tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'The current weather in a city.', parameters: request.tools[0].input_schema }] }],
  generationConfig: { temperature: 0.2 },
};

function geminiFetch(answer, status = 200) {
  const calls = [];
  const f = async (url, init_) => {
    calls.push({ url, init: init_ });
    return typeof answer === 'function' ? answer(url, init_) : new Response(JSON.stringify(answer), { status });
  };
  return { f, calls };
}

test('gemini: countTokens is asked with the whole generateContent request, the key in x-goog-api-key; its totalTokens is the count', async () => {
  const { f, calls } = geminiFetch({ totalTokens: 31, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 31 }] });
  const c = providerCounter({ provider: 'gemini', fetch: f, apiKey: 'AIza-test', tf });
  assert.equal(c.endpoint, 'https://generativelanguage.googleapis.com/v1beta/models/{model}:countTokens');
  const local = tf.countChat(gemini);
  assert.equal(local.shape, 'gemini');
  const got = await c.countChat(gemini);
  assert.deepEqual(got, { tokens: 31, upperBound: 31, exact: true, source: 'provider', model: 'gemini-2.5-pro', estimate: local.total });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:countTokens');
  assert.deepEqual(calls[0].init.headers, { 'x-goog-api-key': 'AIza-test', 'content-type': 'application/json' });
  assert.equal(calls[0].init.redirect, 'manual');
  const { model: _m, ...fields } = gemini;
  assert.deepEqual(JSON.parse(calls[0].init.body), { generateContentRequest: { model: 'models/gemini-2.5-pro', ...fields } });
  // "models/" is the API's own prefix: the same URL.
  await c.countChat({ ...gemini, model: 'models/gemini-2.5-pro' });
  assert.equal(calls[1].url, calls[0].url);
});

test('gemini: errors, nonsense and silence fall back to the estimate with the reason, and the key is redacted', async () => {
  const KEY_G = 'AIza-secret-0123456789';
  const local = tf.countChat(gemini);
  for (const [answer, status, want] of [
    [{ error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } }, 429, { code: 'http', status: 429, type: 'RESOURCE_EXHAUSTED' }],
    [{ error: { code: 400, message: `API key not valid: ${KEY_G}`, status: 'INVALID_ARGUMENT' } }, 400, { code: 'http', status: 400, type: 'INVALID_ARGUMENT' }],
    [{ totalTokens: '31' }, 200, { code: 'malformed', status: 200 }],
    [{ input_tokens: 31 }, 200, { code: 'malformed', status: 200 }],
  ]) {
    const { f } = geminiFetch(answer, status);
    const got = await providerCounter({ provider: 'gemini', fetch: f, apiKey: KEY_G, tf }).countChat(gemini);
    assert.equal(got.source, 'estimate');
    assert.equal(got.tokens, local.total);
    assert.ok(got.upperBound > got.tokens, 'an estimate for Gemini carries its error bound');
    const { message, ...reason } = got.fallbackReason;
    assert.deepEqual(reason, want);
    assert.ok(!message.includes(KEY_G), message);
  }
  const never = () => new Promise(() => {});
  const t0 = performance.now();
  const slow = await providerCounter({ provider: 'gemini', fetch: never, apiKey: KEY_G, tf, timeoutMs: 50 }).countChat(gemini);
  assert.equal(slow.fallbackReason.code, 'timeout');
  assert.ok(performance.now() - t0 < 5000);
});

test('gemini: a model name that would bend the URL, or a request without contents, is refused before anything is sent', async () => {
  const { f, calls } = geminiFetch({ totalTokens: 1 });
  const c = providerCounter({ provider: 'gemini', fetch: f, apiKey: 'AIza-test', tf });
  for (const model of ['../v1/files', 'gemini-2.5-pro?key=x', 'gemini/../x', '']) {
    await assert.rejects(c.countChat({ ...gemini, model }), (e) => e instanceof TokenfitError && e.code === 'invalid_argument' && e.field === 'model');
  }
  await assert.rejects(c.countChat({ model: 'gemini-2.5-pro', messages: [] }), (e) => e.code === 'invalid_argument' && e.field === 'contents');
  assert.throws(() => providerCounter({ provider: 'azure', fetch: f, apiKey: 'k' }), (e) => e.code === 'invalid_argument' && e.field === 'provider');
  assert.equal(calls.length, 0);
});

// ---- OpenAI ------------------------------------------------------------------------

// A Responses API request as responses.create takes it (pydantic-ai's
// recording of one, testdata/billed/openai.json: gpt-5-mini with one tool,
// billed 50), with fields the count endpoint does not take, and a fetch that
// plays the endpoint: it refuses what the API refuses and answers
// {"object": "response.input_tokens", "input_tokens": N}.
const responses = {
  model: 'gpt-5-mini',
  instructions: 'You are a weather assistant.',
  input: [
    { role: 'user', content: "What's the weather in Paris?" },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'Sunny, 22C in Paris' },
  ],
  tools: [{ type: 'function', name: 'get_weather', description: 'Get the current weather for a city.', strict: true,
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }],
  tool_choice: 'auto',
  text: { format: { type: 'json_schema', name: 'weather', schema: { type: 'object', properties: { sunny: { type: 'boolean' } } } } },
  reasoning: { effort: 'low' },
  stream: false,
  store: false,
  include: ['reasoning.encrypted_content'],
  max_output_tokens: 500,
};
const OPENAI_SENT = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning', 'text', 'truncation',
  'conversation', 'previous_response_id', 'personality'];

function openaiFetch(answer, status = 200) {
  const calls = [];
  const f = async (url, init_) => {
    calls.push({ url, init: init_ });
    if (typeof answer === 'function') return answer(url, init_);
    const body = JSON.parse(init_.body);
    const extra = Object.keys(body).find((k) => !OPENAI_SENT.includes(k));
    if (init_.method !== 'POST' || !/^Bearer \S+$/.test(init_.headers.authorization) || extra || typeof body.model !== 'string') {
      return new Response(JSON.stringify({ error: { message: `Unrecognized request argument supplied: ${extra}`, type: 'invalid_request_error', param: extra, code: 'unknown_parameter' } }), { status: 400 });
    }
    return new Response(JSON.stringify(answer), { status });
  };
  return { f, calls };
}

test('openai: the input-token count is asked with the Responses request, the key as a bearer token; its input_tokens is the count', async () => {
  const { f, calls } = openaiFetch({ object: 'response.input_tokens', input_tokens: 120 });
  const c = providerCounter({ provider: 'openai', fetch: f, apiKey: 'sk-test', tf });
  assert.equal(c.endpoint, 'https://api.openai.com/v1/responses/input_tokens');
  const local = tf.countChat(responses);
  assert.equal(local.shape, 'responses');
  const got = await c.countChat(responses);
  assert.deepEqual(got, { tokens: 120, upperBound: 120, exact: true, source: 'provider', model: 'gpt-5-mini', estimate: local.total });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, 'https://api.openai.com/v1/responses/input_tokens');
  assert.deepEqual(calls[0].init.headers, { authorization: 'Bearer sk-test', 'content-type': 'application/json' });
  assert.equal(calls[0].init.redirect, 'manual');
  const { stream: _s, store: _st, include: _i, max_output_tokens: _m, ...fields } = responses;
  assert.deepEqual(JSON.parse(calls[0].init.body), fields);
  // A string input is one user message; organization and project headers go along.
  const org = providerCounter({ provider: 'openai', fetch: f, apiKey: 'sk-test', tf, headers: { 'OpenAI-Project': 'proj_1' } });
  const one = await org.countChat({ model: 'gpt-4o', input: 'tell me a joke' });
  assert.equal(one.tokens, 120);
  assert.equal(calls[1].init.headers['openai-project'], 'proj_1');
  assert.equal(one.estimate, tf.countChat({ model: 'gpt-4o', input: 'tell me a joke' }).total);
});

test('openai: errors, nonsense and silence fall back to the estimate with the reason, and the key is redacted', async () => {
  const KEY_O = 'sk-proj-secret-0123456789';
  const local = tf.countChat(responses);
  for (const [answer, status, want] of [
    [{ error: { message: 'Rate limit reached for gpt-5-mini', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, 429, { code: 'http', status: 429, type: 'requests' }],
    [{ error: { message: `Incorrect API key provided: ${KEY_O}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, 401, { code: 'http', status: 401, type: 'invalid_request_error' }],
    [{ object: 'response.input_tokens', input_tokens: '120' }, 200, { code: 'malformed', status: 200 }],
    [{ totalTokens: 120 }, 200, { code: 'malformed', status: 200 }],
  ]) {
    const { f } = openaiFetch(answer, status);
    const got = await providerCounter({ provider: 'openai', fetch: f, apiKey: KEY_O, tf }).countChat(responses);
    assert.equal(got.source, 'estimate');
    assert.equal(got.tokens, local.total);
    assert.equal(got.upperBound, local.upperBound);
    const { message, ...reason } = got.fallbackReason;
    assert.deepEqual(reason, want);
    assert.ok(!message.includes(KEY_O), message);
  }
  const slow = await providerCounter({ provider: 'openai', fetch: () => new Promise(() => {}), apiKey: KEY_O, tf, timeoutMs: 50 }).countChat(responses);
  assert.equal(slow.fallbackReason.code, 'timeout');
});

test('openai: a request without input (a Chat Completions request) is refused before anything is sent', async () => {
  const { f, calls } = openaiFetch({ input_tokens: 1 });
  const c = providerCounter({ provider: 'openai', fetch: f, apiKey: 'sk-test', tf });
  await assert.rejects(c.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    (e) => e instanceof TokenfitError && e.code === 'invalid_argument' && e.field === 'input');
  await assert.rejects(c.countChat({ input: 'hi' }), (e) => e.code === 'invalid_argument' && e.field === 'model');
  await assert.rejects(c.countChat({ model: 'gpt-4o', input: [{ role: 'robot', content: 'x' }] }), (e) => e.code === 'invalid_request' && /refused the request/.test(e.message));
  assert.equal(calls.length, 0);
});
