// The JSON API over HTTP as a fetch handler (tokenfit/edge): the routes and
// statuses of `tokenfit serve` (host/httpapi, copied into http-table.js by
// go generate), on one instance per handler, started by the first request.
// edge.js and edge-node.js bind it to their init().

import { OPERATIONS, STATUS } from './http-table.js';

const DEFAULT_MAX_BODY_BYTES = 8 << 20;
const INTERNAL = "tokenfit: internal error (the server's log has the details)";

/** makeCreateHandler returns createHandler over an init() (see index.d.ts). */
export function makeCreateHandler(init) {
  return function createHandler(options = {}) {
    const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!(Number.isSafeInteger(maxBody) && maxBody > 0)) throw new TypeError('tokenfit/edge: maxBodyBytes must be a positive integer');
    const origins = new Set(options.corsOrigins ?? []);
    const token = options.token;
    if (token !== undefined && (typeof token !== 'string' || token === '')) throw new TypeError('tokenfit/edge: token must be a non-empty string');
    const log = options.log ?? ((detail) => console.error(detail));
    let started; // the promise of the instance every request shares
    const instance = () => (started ??= init(options.init ?? {}).catch((e) => {
      started = undefined;
      throw e;
    }));

    const serve = async (request) => {
      const url = new URL(request.url);
      const path = url.pathname;
      if (path === '/healthz') {
        if (request.method !== 'GET') return methodNotAllowed(request, path, 'GET');
        const tf = await instance();
        return answer(200, JSON.stringify({ status: 'ok', version: tf.version() }));
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
      const body = await readBody(request, maxBody);
      if (body === undefined) return tooLarge(maxBody);
      const tf = await instance();
      try {
        return answer(200, JSON.stringify(tf.call(op, body.trim() === '' ? '{}' : body)));
      } catch (e) {
        if (e && e.name === 'TokenfitError' && (STATUS[e.code] ?? 500) < 500) {
          return fail(e.code, e.message, undefined, e.field);
        }
        throw e;
      }
    };

    return async function fetch(request) {
      let response;
      try {
        response = await serve(request);
      } catch (e) {
        // An instance that failed inside is not trusted again: the next
        // request starts another.
        started = undefined;
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
// (refused before reading when Content-Length says so).
async function readBody(request, max) {
  const declared = Number(request.headers.get('Content-Length'));
  if (declared > max) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
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
