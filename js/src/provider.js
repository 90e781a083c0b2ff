// The provider counter: exact counts for models without a public tokenizer
// from the provider's own count endpoint (Anthropic's
// POST /v1/messages/count_tokens), through a fetch the caller supplies, with
// a timeout and a fallback to tokenfit's local estimate that says which one
// answered. Opt-in and never on the hot path: nothing here runs, and no
// request is made, unless a caller makes a counter and awaits its countChat.
// Types and documentation in index.d.ts; the reasons in RATIONALE.md.

import { TokenfitError } from './errors.js';
import { badArg, toJSON } from './args.js';
import { countChat as firstInstanceCountChat } from './tokenfit.js';

const ENDPOINT = '/v1/messages/count_tokens';
const MAX_TIMEOUT = 0x7fffffff; // setTimeout's largest delay

// The body fields count_tokens takes (Anthropic's API reference, and the
// beta's mcp_servers and context_management). messages.create's others —
// max_tokens, temperature, stream, metadata… — are refused by the endpoint
// ("Extra inputs are not permitted"), so a request made for messages.create
// can be passed as it is.
const FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'cache_control',
  'mcp_servers', 'context_management'];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  const {
    fetch: fetchFn, apiKey, baseURL = 'https://api.anthropic.com', timeoutMs = 5000,
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
  // The endpoint is fixed here, once: the key goes to this URL and nowhere
  // else (redirects are not followed: see ask).
  const endpoint = base.origin + base.pathname.replace(/\/+$/, '') + ENDPOINT;
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
  Object.assign(sent, { 'x-api-key': apiKey, 'anthropic-version': anthropicVersion, 'content-type': 'application/json' });
  const redact = redactor(secrets);
  if (tf !== undefined && !(tf !== null && typeof tf.countChat === 'function')) {
    throw badArg(fn, 'tf must be a tokenfit instance (from init() or createWorker())', tf, 'tf');
  }
  const estimate = tf ? (req) => tf.countChat(req) : firstInstanceCountChat;

  async function countChat(request) {
    const fn = 'providerCounter.countChat';
    if (!isObject(request)) throw badArg(fn, 'the request must be an object in the shape of Anthropic\'s Messages API', request);
    if (typeof request.model !== 'string' || request.model === '') throw badArg(fn, 'model must be a non-empty string', request.model, 'model');
    if (!Array.isArray(request.messages)) throw badArg(fn, 'messages must be an array', request.messages, 'messages');
    const body = {};
    for (const k of FIELDS) if (request[k] !== undefined) body[k] = request[k];
    const json = toJSON(fn, body); // what JSON cannot hold is invalid_argument, as for every call
    // The local estimate comes first: it checks the request before anything
    // is sent, it is the answer should the provider fail, and, uncalibrated,
    // beside the provider's count it is a pair for tf.calibrate. A fraction
    // of a millisecond, next to a round trip.
    let local;
    let scaled; // the answer should the provider fail: calibrated when the request carries a calibration
    try {
      const chat = toChat(request);
      local = await estimate(chat);
      scaled = request.calibration == null ? local : await estimate({ ...chat, calibration: request.calibration });
    } catch (e) {
      // A request core refuses is the caller's to fix (its field paths are
      // the translation's); anything else (no instance yet, the lean
      // module) passes unchanged.
      if (!(e instanceof TokenfitError) || e.code !== 'invalid_request') throw e;
      throw new TokenfitError(e.code, `tokenfit: ${fn}: the local estimate refused the request as translated to OpenAI's shape: ${e.message}`);
    }
    const model = request.model;
    const reason = await ask(fetchFn, endpoint, sent, json, timeoutMs, redact);
    if (typeof reason === 'number') {
      return { tokens: reason, upperBound: reason, exact: true, source: 'provider', model, estimate: local.total };
    }
    return { tokens: scaled.total, upperBound: scaled.upperBound, exact: false, source: 'estimate', model, estimate: local.total, fallbackReason: reason };
  }

  return Object.freeze({ endpoint, countChat });
}

// ask posts the request once and returns input_tokens, or why there is no
// count: { code, message, status?, type? }, with every secret redacted. It never throws, and it settles
// within timeoutMs even when the fetch given ignores the abort signal.
// No retries: a fallback now is worth more than a count later.
async function ask(fetchFn, endpoint, headers, body, timeoutMs, redact) {
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
      // Anthropic's errors: {"type": "error", "error": {"type": "rate_limit_error", "message": "…"}}.
      const err = isObject(answer) && isObject(answer.error) ? answer.error : {};
      const type = typeof err.type === 'string' ? err.type : undefined;
      const said = typeof err.message === 'string' ? err.message : '';
      const reason = { code: 'http', status: res.status, message: `HTTP ${res.status}${type ? ` ${type}` : ''}${said ? `: ${said.slice(0, 500)}` : ''}` };
      if (type) reason.type = type;
      return reason;
    }
    if (!isObject(answer)) {
      return { code: 'malformed', status: res.status, message: `the answer is not a JSON object: ${JSON.stringify(text.slice(0, 80))}` };
    }
    const n = answer.input_tokens;
    if (!Number.isSafeInteger(n) || n < 0) {
      return { code: 'malformed', status: res.status, message: `input_tokens must be an integer ≥ 0, got ${JSON.stringify(n) ?? 'nothing'}` };
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

// ---- the local estimate ----------------------------------------------------

// toChat translates an Anthropic Messages request into the OpenAI chat
// request core counts, for the estimate: system becomes a system message,
// tool_use blocks tool_calls, each tool_result a tool message, images
// image_url parts, tools functions with input_schema as parameters, and
// tool_choice any → required, tool → the function. Blocks it does not know
// (documents, server tool results…) count as their JSON text, which errs
// high. Claude's own per-message and image costs are not public; the
// estimate's upperBound carries the estimator's error bound.
function toChat(req) {
  const messages = [];
  const system = textOf(req.system);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const m of req.messages) {
    if (!isObject(m) || !Array.isArray(m.content)) {
      messages.push(isObject(m) ? { role: m.role, content: m.content } : m);
      continue;
    }
    const parts = [];
    const calls = [];
    const images = []; // of tool results: they follow as a user message
    for (const b of m.content) {
      const type = isObject(b) ? b.type : undefined;
      if (type === 'tool_use' || type === 'server_tool_use') {
        calls.push({ id: String(b.id ?? ''), type: 'function', function: { name: String(b.name ?? ''), arguments: JSON.stringify(b.input ?? {}) } });
      } else if (type === 'tool_result') {
        const inner = Array.isArray(b.content) ? b.content : [];
        for (const c of inner) if (isObject(c) && c.type === 'image') images.push(part(c));
        const text = textOf(Array.isArray(b.content) ? inner.filter((c) => !(isObject(c) && c.type === 'image')) : b.content);
        messages.push({ role: 'tool', tool_call_id: String(b.tool_use_id ?? ''), content: text });
      } else {
        parts.push(part(b));
      }
    }
    if (images.length) messages.push({ role: 'user', content: images });
    if (parts.length || calls.length || m.content.length === 0) {
      const msg = { role: m.role, content: parts };
      if (calls.length) msg.tool_calls = calls;
      messages.push(msg);
    }
  }
  const chat = { model: req.model, messages };
  if (Array.isArray(req.tools) && req.tools.length) chat.tools = req.tools.map(tool);
  const choice = toolChoice(req.tool_choice);
  if (choice !== undefined && chat.tools) chat.tool_choice = choice;
  return chat;
}

// part is one content block as an OpenAI content part.
function part(b) {
  if (isObject(b) && b.type === 'text') return { type: 'text', text: b.text };
  if (isObject(b) && b.type === 'image' && isObject(b.source)) {
    const s = b.source;
    let url = '';
    if (s.type === 'base64') url = `data:${s.media_type};base64,${s.data}`;
    else if (typeof s.url === 'string') url = s.url;
    else if (typeof s.file_id === 'string') url = `file:${s.file_id}`;
    // An unknown source: core counts the image at its largest cost.
    return { type: 'image_url', image_url: { url: url || 'about:blank' } };
  }
  if (isObject(b) && b.type === 'thinking' && typeof b.thinking === 'string') return { type: 'text', text: b.thinking };
  return { type: 'text', text: JSON.stringify(b) ?? '' };
}

// textOf is a system prompt's or a tool result's content as text.
function textOf(v) {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((b) => (isObject(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : JSON.stringify(b))).join('\n');
  return JSON.stringify(v);
}

function tool(t) {
  if (isObject(t) && t.input_schema !== undefined) {
    const f = { name: t.name, parameters: t.input_schema };
    if (t.description !== undefined) f.description = t.description;
    return { type: 'function', function: f };
  }
  // A server tool (web search, bash, text editor…): its definition as text.
  const name = isObject(t) ? String(t.name ?? t.type ?? 'tool') : 'tool';
  return { type: 'function', function: { name, description: JSON.stringify(t) } };
}

function toolChoice(c) {
  if (!isObject(c)) return undefined;
  switch (c.type) {
    case 'auto':
    case 'none':
      return c.type;
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: String(c.name ?? '') } };
    default:
      return undefined;
  }
}
