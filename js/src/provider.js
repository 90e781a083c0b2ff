// The provider counter: exact counts from the provider's own count endpoint
// (Anthropic's POST /v1/messages/count_tokens, Gemini's
// models/{model}:countTokens, OpenAI's POST /v1/responses/input_tokens),
// through a fetch the caller supplies, with a timeout and a fallback to
// tokenfit's local estimate that says which one answered. The estimate is
// core's countChat of the request in the provider's own shape (core
// translates it; see core/internal/chat/shape.go). Opt-in and never on the hot path:
// nothing here runs, and no request is made, unless a caller makes a
// counter and awaits its countChat. Types and documentation in index.d.ts;
// the reasons in RATIONALE.md.

import { TokenfitError } from './errors.js';
import { badArg, toJSON } from './args.js';
import { countChat as firstInstanceCountChat } from './tokenfit.js';

const MAX_TIMEOUT = 0x7fffffff; // setTimeout's largest delay

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// pick copies the fields of req that are set.
function pick(req, fields) {
  const out = {};
  for (const k of fields) if (req[k] !== undefined) out[k] = req[k];
  return out;
}

// What differs between the providers: where the count is asked, with which
// headers and body, and where the answer holds the count and the error's
// type. Everything else (checks, timeout, fallback, redaction) is shared.
const PROVIDERS = {
  anthropic: {
    baseURL: 'https://api.anthropic.com',
    endpoint: (base) => `${base}/v1/messages/count_tokens`,
    // The body fields count_tokens takes (Anthropic's API reference, and the
    // beta's mcp_servers and context_management). messages.create's others —
    // max_tokens, temperature, stream, metadata… — are refused by the
    // endpoint ("Extra inputs are not permitted"), so a request made for
    // messages.create can be passed as it is.
    body: (req) => pick(req, ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config',
      'cache_control', 'mcp_servers', 'context_management']),
    headers: (key, o) => ({ 'x-api-key': key, 'anthropic-version': o.anthropicVersion }),
    list: 'messages',
    count: 'input_tokens',
    // {"type": "error", "error": {"type": "rate_limit_error", "message": "…"}}
    errorType: (err) => err.type,
  },
  gemini: {
    baseURL: 'https://generativelanguage.googleapis.com',
    // One URL per model: the model is part of the path.
    endpoint: (base, model) => `${base}/v1beta/models/${model}:countTokens`,
    // countTokens takes the whole generateContent request (system
    // instruction and tools included) under generateContentRequest, which
    // names its model.
    body: (req) => ({
      generateContentRequest: {
        model: `models/${geminiModel(req.model)}`,
        ...pick(req, ['contents', 'systemInstruction', 'system_instruction', 'tools', 'toolConfig', 'tool_config',
          'cachedContent', 'cached_content', 'generationConfig', 'generation_config']),
      },
    }),
    headers: (key) => ({ 'x-goog-api-key': key }),
    list: 'contents',
    count: 'totalTokens',
    // {"error": {"code": 429, "message": "…", "status": "RESOURCE_EXHAUSTED"}}
    errorType: (err) => err.status,
  },
  openai: {
    baseURL: 'https://api.openai.com',
    // The Responses API's input-token count (testdata/billed/constants.md
    // §3.1): it takes a Responses request and answers
    // {"object": "response.input_tokens", "input_tokens": N}.
    endpoint: (base) => `${base}/v1/responses/input_tokens`,
    // The body fields the endpoint takes (openai-python's
    // responses.input_tokens.count); responses.create's others (stream,
    // store, include, max_output_tokens, temperature…) are not sent, so a
    // request made for responses.create can be passed as it is.
    body: (req) => pick(req, ['model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning',
      'text', 'truncation', 'conversation', 'previous_response_id', 'personality']),
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    list: 'input',
    // A string input is one user message.
    listOK: (v) => Array.isArray(v) || typeof v === 'string',
    count: 'input_tokens',
    // {"error": {"message": "…", "type": "invalid_request_error", "param": …, "code": …}}
    errorType: (err) => err.type,
    // The shape core reads the request in (core/internal/chat/shape_responses.go).
    shape: 'responses',
    shapeName: 'OpenAI\'s Responses API',
  },
};

// A Gemini model name as the URL path takes it: "models/" dropped, and only
// the characters model names use, so that the path cannot be bent.
const GEMINI_MODEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const geminiModel = (m) => m.replace(/^models\//, '');

// What HTTP allows in a header's name (a token) and value (tab, visible
// characters, obs-text; no CR, LF, NUL or other control character). fetch
// refuses the rest with a message that quotes the value, which for the key
// would put it into a fallback reason; so they are refused here, before
// anything is sent, without quoting the value.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

// A header whose value is a secret too: redacted like the key.
const SECRET_HEADER = /auth|key|token|secret|cookie|session/i;

// redactor returns a function that replaces every secret in a message
// with "[redacted]".
function redactor(secrets) {
  const list = secrets.filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
  return (m) => {
    if (typeof m !== 'string') return m;
    for (const v of list) m = m.split(v).join('[redacted]');
    return m;
  };
}

/**
 * providerCounter checks its options once and returns a counter whose
 * countChat asks the provider and falls back to the local estimate. See
 * index.d.ts.
 */
export function providerCounter(options) {
  const fn = 'providerCounter';
  if (!isObject(options)) throw badArg(fn, 'the options must be an object', options);
  const { provider = 'anthropic' } = options;
  if (!Object.hasOwn(PROVIDERS, provider)) throw badArg(fn, `provider must be one of ${Object.keys(PROVIDERS).join(', ')}`, provider, 'provider');
  const p = PROVIDERS[provider];
  const {
    fetch: fetchFn, apiKey, baseURL = p.baseURL, timeoutMs = 5000,
    anthropicVersion = '2023-06-01', headers = {}, tf,
  } = options;
  if (typeof fetchFn !== 'function') {
    throw badArg(fn, 'fetch must be a function (globalThis.fetch, or your own): tokenfit makes no request by itself', fetchFn, 'fetch');
  }
  if (typeof apiKey !== 'string' || apiKey === '') throw badArg(fn, 'apiKey must be a non-empty string', apiKey, 'apiKey');
  if (!HEADER_VALUE.test(apiKey)) {
    throw new TokenfitError('invalid_argument', `tokenfit: ${fn}: apiKey holds a character an HTTP header cannot carry (CR, LF, NUL or another control character): check how the key was read (a trailing newline?)`, 'apiKey');
  }
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT)) {
    throw badArg(fn, `timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT}`, timeoutMs, 'timeoutMs');
  }
  if (typeof anthropicVersion !== 'string' || anthropicVersion === '' || !HEADER_VALUE.test(anthropicVersion)) {
    throw badArg(fn, 'anthropicVersion must be a non-empty string an HTTP header can carry', anthropicVersion, 'anthropicVersion');
  }
  let base;
  try {
    base = new URL(baseURL);
  } catch {
    base = null;
  }
  // User-info would send the key elsewhere (https://api.anthropic.com@evil.example
  // is evil.example), a query or a fragment may hold a secret: all are
  // refused, and the message quotes only the parts that are neither.
  if (!base || (base.protocol !== 'https:' && base.protocol !== 'http:') || base.search || base.hash || base.username || base.password) {
    let got;
    if (base) {
      const parts = [base.username || base.password ? 'user-info' : '', base.search ? 'a query' : '', base.hash ? 'a fragment' : ''].filter(Boolean);
      got = `${JSON.stringify(`${base.protocol}//${base.host}${base.pathname}`.slice(0, 80))}${parts.length ? ` with ${parts.join(' and ')}` : ''}`;
    } else {
      got = typeof baseURL === 'string' ? `a string that is not an absolute URL (${baseURL.length} characters)` : typeof baseURL;
    }
    throw new TokenfitError('invalid_argument', `tokenfit: ${fn}: baseURL must be an absolute http or https URL without user-info, a query or a fragment, got ${got}`, 'baseURL');
  }
  // The endpoint is fixed here, once (for Gemini, but for the model): the
  // key goes to this URL and nowhere else (redirects are not followed: see
  // ask).
  const root = base.origin + base.pathname.replace(/\/+$/, '');
  const endpoint = p.endpoint(root, '{model}');
  if (!isObject(headers)) throw badArg(fn, 'headers must be an object of strings', headers, 'headers');
  const sent = {};
  const secrets = [apiKey];
  for (const [k, v] of Object.entries(headers)) {
    const name = JSON.stringify(k.slice(0, 40));
    if (!HEADER_NAME.test(k)) throw new TokenfitError('invalid_argument', `tokenfit: ${fn}: headers: ${name} is not an HTTP header name`, 'headers');
    if (typeof v !== 'string') {
      throw new TokenfitError('invalid_argument', `tokenfit: ${fn}: headers[${name}] must be a string, got ${v === null ? 'null' : typeof v}`, 'headers');
    }
    if (!HEADER_VALUE.test(v)) {
      throw new TokenfitError('invalid_argument', `tokenfit: ${fn}: headers[${name}] holds a character an HTTP header cannot carry (CR, LF, NUL or another control character)`, 'headers');
    }
    // The value, and each long word of it (the credentials after "Bearer").
    if (SECRET_HEADER.test(k)) secrets.push(v, ...v.split(/\s+/).filter((w) => w.length >= 8));
    sent[k.toLowerCase()] = v;
  }
  Object.assign(sent, { ...p.headers(apiKey, { anthropicVersion }), 'content-type': 'application/json' });
  const redact = redactor(secrets);
  if (tf !== undefined && !(tf !== null && typeof tf.countChat === 'function')) {
    throw badArg(fn, 'tf must be a tokenfit instance (from init() or createWorker())', tf, 'tf');
  }
  const estimate = tf ? (req) => tf.countChat(req) : firstInstanceCountChat;

  async function countChat(request) {
    const fn = 'providerCounter.countChat';
    const shapeName = p.shapeName ?? (provider === 'gemini' ? 'Gemini\'s generateContent API' : 'Anthropic\'s Messages API');
    if (!isObject(request)) throw badArg(fn, `the request must be an object in the shape of ${shapeName}`, request);
    if (typeof request.model !== 'string' || request.model === '') throw badArg(fn, 'model must be a non-empty string', request.model, 'model');
    if (provider === 'gemini' && !GEMINI_MODEL.test(geminiModel(request.model))) {
      throw badArg(fn, 'model must be a Gemini model name (letters, digits, ".", "_" and "-", optionally after "models/")', request.model, 'model');
    }
    if (!(p.listOK ?? Array.isArray)(request[p.list])) {
      throw badArg(fn, `${p.list} must be an array${p.listOK ? ' or a string' : ''}`, request[p.list], p.list);
    }
    const json = toJSON(fn, p.body(request)); // what JSON cannot hold is invalid_argument, as for every call
    const url = p.endpoint(root, geminiModel(request.model));
    // The local estimate comes first: it checks the request before anything
    // is sent, it is the answer should the provider fail, and, uncalibrated,
    // beside the provider's count it is a pair for tf.calibrate. A fraction
    // of a millisecond, next to a round trip.
    let local;
    let scaled; // the answer should the provider fail: calibrated when the request carries a calibration
    try {
      const { calibration, ...plain } = request;
      const shaped = { ...plain, shape: p.shape ?? provider };
      local = await estimate(shaped);
      scaled = calibration == null ? local : await estimate({ ...shaped, calibration });
    } catch (e) {
      // A request core refuses is the caller's to fix (its field paths are
      // the request's own); anything else (no instance yet, the lean
      // module) passes unchanged.
      if (!(e instanceof TokenfitError) || e.code !== 'invalid_request') throw e;
      throw new TokenfitError(e.code, `tokenfit: ${fn}: the local estimate refused the request: ${e.message}`, e.field);
    }
    const model = request.model;
    const reason = await ask(fetchFn, url, sent, json, timeoutMs, redact, p);
    if (typeof reason === 'number') {
      return { tokens: reason, upperBound: reason, exact: true, source: 'provider', model, estimate: local.total };
    }
    return { tokens: scaled.total, upperBound: scaled.upperBound, exact: false, source: 'estimate', model, estimate: local.total, fallbackReason: reason };
  }

  return Object.freeze({ endpoint, countChat });
}

// ask posts the request once and returns the provider's count, or why
// there is no count: { code, message, status?, type? }, with every secret
// redacted. It never throws, and it settles within timeoutMs even when the
// fetch given ignores the abort signal. No retries: a fallback now is worth
// more than a count later.
async function ask(fetchFn, endpoint, headers, body, timeoutMs, redact, p) {
  const controller = new AbortController();
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ code: 'timeout', message: `the provider did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const work = (async () => {
    let res;
    try {
      // Called unbound: a browser's fetch refuses any `this` but the window.
      // redirect: 'manual' — a redirect would carry x-api-key to wherever it
      // points (fetch strips only Authorization across origins).
      res = await fetchFn(endpoint, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
    } catch (e) {
      return { code: 'network', message: `the request failed: ${causeOf(e)}` };
    }
    if (res === null || typeof res !== 'object' || typeof res.status !== 'number' || typeof res.text !== 'function') {
      return { code: 'malformed', message: 'the fetch function did not resolve to a Response' };
    }
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
      // (A browser shows a redirect not followed as status 0, type opaqueredirect.)
      const reason = { code: 'redirect', message: `the provider answered a redirect${res.status ? ` (HTTP ${res.status})` : ''}, which is not followed: the API key goes to baseURL only` };
      if (res.status) reason.status = res.status;
      return reason;
    }
    let text;
    try {
      text = await res.text();
    } catch (e) {
      return { code: 'network', status: res.status, message: `reading the answer failed: ${causeOf(e)}` };
    }
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (res.status < 200 || res.status > 299) {
      const err = isObject(answer) && isObject(answer.error) ? answer.error : {};
      const type = typeof p.errorType(err) === 'string' ? p.errorType(err) : undefined;
      const said = typeof err.message === 'string' ? err.message : '';
      const reason = { code: 'http', status: res.status, message: `HTTP ${res.status}${type ? ` ${type}` : ''}${said ? `: ${said.slice(0, 500)}` : ''}` };
      if (type) reason.type = type;
      return reason;
    }
    if (!isObject(answer)) {
      return { code: 'malformed', status: res.status, message: `the answer is not a JSON object: ${JSON.stringify(text.slice(0, 80))}` };
    }
    const n = answer[p.count];
    if (!Number.isSafeInteger(n) || n < 0) {
      return { code: 'malformed', status: res.status, message: `${p.count} must be an integer ≥ 0, got ${JSON.stringify(n) ?? 'nothing'}` };
    }
    return n;
  })().catch((e) => ({ code: 'malformed', message: `the fetch function's answer failed: ${causeOf(e)}` }));
  let reason;
  try {
    reason = await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
  // Whatever the fetch, the network or the server said may quote the key
  // (a proxy's error page, a fetch whose error lists the headers).
  if (typeof reason === 'object') {
    reason.message = redact(reason.message);
    if (reason.type !== undefined) reason.type = redact(reason.type);
  }
  return reason;
}

function causeOf(e) {
  const m = e && e.message ? e.message : String(e);
  const c = e && e.cause && (e.cause.code || e.cause.message);
  return c && !m.includes(c) ? `${m} (${c})` : m;
}
