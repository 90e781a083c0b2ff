// The JSON API over HTTP as a fetch handler (tokenfit/edge): the routes and
// statuses of `tokenfit serve` (host/httpapi, copied into http-table.js by
// go generate), on one instance per handler, started by the first request.
// edge.js and edge-node.js bind it to their init().

import { OPERATIONS, STATUS } from './http-table.js';

const DEFAULT_MAX_BODY_BYTES = 8 << 20;
// The limits in flight and the instance memory past which an instance is
// retired: those of tokenfit serve and the Go host (host/httpapi,
// host.DefaultMaxInstanceMemory).
const DEFAULT_MAX_IN_FLIGHT = 64;
const DEFAULT_IN_FLIGHT_BODIES = 4;
const DEFAULT_MAX_INSTANCE_MEMORY = 256 << 20;
const RETRY_AFTER_SECONDS = 1;
const INTERNAL = "tokenfit: internal error (the server's log has the details)";

// ClientGone is a body the client stopped sending (it went away): no one
// is left to answer, and the instance has done nothing wrong.
class ClientGone extends Error {}

// Busy is a body whose bytes would pass the bytes in flight.
class Busy extends Error {}

const positive = (name, v) => {
  if (!(Number.isSafeInteger(v) && v > 0)) throw new TypeError(`tokenfit/edge: ${name} must be a positive integer`);
  return v;
};

/** makeCreateHandler returns createHandler over an init() (see index.d.ts). */
export function makeCreateHandler(init) {
  return function createHandler(options = {}) {
    const maxBody = positive('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    const maxRequests = positive('maxInFlight', options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    const maxBytes = positive('maxInFlightBytes', options.maxInFlightBytes ?? DEFAULT_IN_FLIGHT_BODIES * maxBody);
    if (maxBytes < maxBody) throw new TypeError('tokenfit/edge: maxInFlightBytes must be at least maxBodyBytes');
    const maxMemory = positive('maxInstanceMemory', options.maxInstanceMemory ?? DEFAULT_MAX_INSTANCE_MEMORY);
    const flight = { requests: 0, bytes: 0 };
    const origins = new Set(options.corsOrigins ?? []);
    const token = options.token;
    if (token !== undefined && (typeof token !== 'string' || token === '')) throw new TypeError('tokenfit/edge: token must be a non-empty string');
    const log = options.log ?? ((detail) => console.error(detail));
    let started; // the promise of the instance every request shares
    let version; // what the first instance said, for /healthz
    const instance = () => (started ??= init(options.init ?? {}).then((tf) => {
      version ??= tf.version();
      return tf;
    }, (e) => {
      started = undefined;
      throw e;
    }));

    const serve = async (request) => {
      const url = new URL(request.url);
      const path = url.pathname;
      if (path === '/healthz') {
        if (request.method !== 'GET') return methodNotAllowed(request, path, 'GET');
        // Answered from what the first instance said: a health check starts
        // the instance only when no request has yet.
        if (version === undefined) await instance();
        return answer(200, JSON.stringify({ status: 'ok', version }));
      }
      if (!path.startsWith('/v1/')) {
        return fail('not_found', `tokenfit: no route ${JSON.stringify(path)}: POST /v1/{operation} or GET /healthz`);
      }
      if (token !== undefined && !authorized(request.headers.get('Authorization'), token)) {
        return fail('unauthorized', 'tokenfit: this server needs Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' });
      }
      const op = path.slice(4);
      if (!OPERATIONS.includes(op)) {
        return fail('unknown_operation', `tokenfit: unknown operation ${JSON.stringify(op)} (served: ${OPERATIONS.join(', ')})`);
      }
      if (request.method !== 'POST') return methodNotAllowed(request, path, 'POST');
      const ct = request.headers.get('Content-Type') ?? '';
      if (ct.split(';')[0].trim().toLowerCase() !== 'application/json') {
        return fail('unsupported_media_type', `tokenfit: the body must be JSON, sent as Content-Type: application/json (not ${JSON.stringify(ct)})`);
      }
      if (flight.requests >= maxRequests) {
        return busy(`tokenfit: the server is running as many requests as it takes (${maxRequests}): try again shortly`);
      }
      flight.requests++;
      const held = { bytes: 0 };
      try {
        let body;
        try {
          body = await readBody(request, maxBody, (n) => {
            if (flight.bytes + n > maxBytes) throw new Busy();
            flight.bytes += n;
            held.bytes += n;
          });
        } catch (e) {
          if (e instanceof Busy) {
            return busy(`tokenfit: the server holds as many request bytes as it takes (${maxBytes}): try again shortly`);
          }
          if (e instanceof ClientGone) {
            // The client went away: a 4xx for no one, no log line, and the
            // instance, which has done nothing, is kept.
            return fail('invalid_request', `tokenfit: invalid request: reading the body: ${e.message}`);
          }
          throw e;
        }
        if (body === undefined) return tooLarge(maxBody);
        const mine = instance();
        const tf = await mine;
        if (request.signal?.aborted) {
          return fail('invalid_request', 'tokenfit: invalid request: the client went away before its request was answered');
        }
        try {
          return answer(200, JSON.stringify(tf.call(op, body.trim() === '' ? '{}' : body)));
        } catch (e) {
          if (e && e.name === 'TokenfitError' && (STATUS[e.code] ?? 500) < 500) {
            return fail(e.code, e.message, undefined, e.field);
          }
          // An instance that failed inside is not trusted again: the next
          // request starts another.
          if (started === mine) started = undefined;
          throw e;
        } finally {
          // An instance a request grew is retired, as the Go host retires
          // one: its memory goes back once it is collected.
          if (started === mine && !(tf.memoryBytes() <= maxMemory)) started = undefined;
        }
      } finally {
        flight.requests--;
        flight.bytes -= held.bytes;
      }
    };

    return async function fetch(request) {
      let response;
      try {
        response = await serve(request);
      } catch (e) {
        log(`tokenfit/edge: ${request.method} ${request.url}: ${e && e.stack || e}`);
        response = fail('internal', INTERNAL);
      }
      return cors(request, response, origins);
    };
  };
}

// authorized compares the bearer token in time independent of where the
// first difference is.
function authorized(header, token) {
  const m = /^Bearer +(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = m[1].trim();
  let diff = a.length ^ token.length;
  for (let i = 0; i < token.length; i++) diff |= token.charCodeAt(i) ^ (a.charCodeAt(i) | 0);
  return diff === 0;
}

// readBody reads the body as text, or returns undefined past max bytes
// (refused before reading when Content-Length says so). take(n) is called
// with each chunk's bytes before it is kept (and throws to refuse them); a
// body that fails while it is read (the client went away) is ClientGone.
async function readBody(request, max, take) {
  const declared = Number(request.headers.get('Content-Length'));
  if (declared > max) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    let r;
    try {
      r = await reader.read();
    } catch (e) {
      throw new ClientGone(e && e.message || String(e));
    }
    const { done, value } = r;
    if (done) break;
    try {
      take(value.byteLength);
    } catch (e) {
      reader.cancel().catch(() => {});
      throw e;
    }
    n += value.byteLength;
    if (n > max) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

// cors adds the CORS headers for an origin in the list, and answers its
// preflight; other origins get none (the browser then refuses).
function cors(request, response, origins) {
  const origin = request.headers.get('Origin');
  if (origin === null || !(origins.has(origin) || origins.has('*'))) return response;
  const h = new Headers(response.headers);
  h.set('Access-Control-Allow-Origin', origins.has('*') ? '*' : origin);
  h.append('Vary', 'Origin');
  if (request.method === 'OPTIONS' && request.headers.get('Access-Control-Request-Method')) {
    h.set('Access-Control-Allow-Methods', 'POST, GET');
    h.set('Access-Control-Allow-Headers', 'Content-Type, Authorization');
    h.set('Access-Control-Max-Age', '600');
    h.delete('Allow');
    return new Response(null, { status: 204, headers: h });
  }
  return new Response(response.body, { status: response.status, headers: h });
}

function methodNotAllowed(request, path, allow) {
  return fail('method_not_allowed', `tokenfit: ${path} takes ${allow}, not ${request.method}`, { Allow: allow });
}

// busy refuses a request past the limits in flight, to be sent again.
function busy(message) {
  return fail('overloaded', message, { 'Retry-After': String(RETRY_AFTER_SECONDS), Connection: 'close' });
}

function tooLarge(max) {
  return fail('payload_too_large', `tokenfit: the body is larger than this server takes (${max} bytes)`, { Connection: 'close' });
}

function fail(code, message, headers, field) {
  const error = { code, message };
  if (field) error.field = field;
  return answer(STATUS[code] ?? 500, JSON.stringify({ error }), headers);
}

function answer(status, body, headers) {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'application/json',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      ...headers,
    },
  });
}
