// A small static server for dist/, and an example worth copying: correct
// types (application/wasm, so that browsers compile while downloading),
// the .br and .gz files build.mjs made (never compression per request),
// strong ETags, a year of caching for the content-addressed assets/<hash>/,
// and the headers a page that runs WebAssembly should have. Nothing from
// the network: it answers only to the names of this machine.
//
//   PORT=8080 node server.mjs      (PORT=0 picks a free port; the URL is printed)
//
// What it refuses: a Host that is not localhost, 127.0.0.1 or [::1] (a DNS
// rebinding page would send its own name) → 421; a malformed % escape →
// 400; a path out of dist/, or through a symbolic link anywhere inside it
// → 404, as for a missing file; any method but GET and HEAD → 405.

import { createServer } from 'node:http';
import { lstat, readFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = realpathSync(fileURLToPath(new URL('./dist/', import.meta.url)));
const port = Number(process.env.PORT ?? 8080);

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.tkp': 'application/octet-stream',
  '.tkt': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

// The page's policy: its own scripts and WebAssembly only, workers from
// itself, no framing, and Trusted Types required (the page makes its one
// script URL, the worker's, through the policy "tokenfit-demo").
const csp = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types tokenfit-demo',
].join('; ');

// Sent with every answer, errors and 304s included.
const always = {
  'Content-Security-Policy': csp,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

// open returns the regular file at the URL path under dist/, or null: each
// step is checked with lstat, so no symbolic link is ever followed, in
// dist/ or out of it.
async function open(path) {
  const parts = path.split('/').filter(Boolean);
  if (parts.some((p) => p === '..' || p === '.' || p.includes('\\') || p.includes('\0'))) return null;
  let file = dist;
  for (const [i, p] of parts.entries()) {
    file = join(file, p);
    const st = await lstat(file).catch(() => null);
    if (!st || st.isSymbolicLink()) return null;
    if (i === parts.length - 1 ? !st.isFile() : !st.isDirectory()) return null;
  }
  return parts.length ? file : null;
}

// One entry per file, modification time and size: its bytes, a strong
// ETag (of the bytes) and the precompressed forms build.mjs left beside it.
const cache = new Map();

async function load(file) {
  const st = await lstat(file);
  const key = `${st.mtimeMs}:${st.size}`;
  let e = cache.get(file);
  if (!e || e.key !== key) {
    const body = await readFile(file);
    e = { key, body, type: types[extname(file)] ?? 'application/octet-stream', etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, encoded: {} };
    for (const [enc, ext] of [['br', '.br'], ['gzip', '.gz']]) {
      const f = await open(`${file.slice(dist.length)}${ext}`);
      if (f) e.encoded[enc] = await readFile(f);
    }
    cache.set(file, e);
  }
  return e;
}

// encoding picks br, then gzip, of those the client accepts (q=0 refuses).
function encoding(e, accept = '') {
  const ok = new Set(accept.split(',').map((s) => s.trim().split(';')).filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? '')).map(([n]) => n.trim().toLowerCase()));
  return ['br', 'gzip'].find((n) => e.encoded[n] && ok.has(n));
}

const localNames = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostOK(host, actualPort) {
  const m = /^(.+?)(?::(\d+))?$/.exec(host ?? '');
  return !!m && localNames.has(m[1].toLowerCase()) && (m[2] === undefined || Number(m[2]) === actualPort);
}

function plain(res, status, text, extra = {}) {
  res.writeHead(status, { ...always, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra }).end(`${text}\n`);
}

async function handle(req, res) {
  if (!hostOK(req.headers.host, server.address().port)) return plain(res, 421, 'this server answers to localhost only');
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'GET or HEAD only', { Allow: 'GET, HEAD' });
  let path;
  try {
    path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch {
    return plain(res, 400, 'malformed URL escape');
  }
  if (path.endsWith('/')) path += 'index.html';
  if (/\.(br|gz)$/.test(path)) return plain(res, 404, 'not found');
  const file = await open(path);
  const e = file && (await load(file).catch(() => null));
  if (!e) return plain(res, 404, 'not found');

  const headers = {
    ...always,
    'Content-Type': e.type,
    // assets/<hash>/ never changes under its name; the rest revalidates,
    // so that a rebuilt page is never stale.
    'Cache-Control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: e.etag,
    Vary: 'Accept-Encoding',
  };
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === e.etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  const enc = encoding(e, req.headers['accept-encoding']);
  const body = enc ? e.encoded[enc] : e.body;
  if (enc) headers['Content-Encoding'] = enc;
  headers['Content-Length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

const server = createServer((req, res) => {
  handle(req, res).catch((err) => {
    if (!res.headersSent) plain(res, 500, err.message);
    else res.destroy(err);
  });
});

// localhost is 127.0.0.1 for some clients and ::1 for others: listen on both.
server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address();
  const v6 = createServer(server.listeners('request')[0]);
  v6.on('error', () => {}); // no IPv6 here: 127.0.0.1 is enough
  v6.listen(actual, '::1');
  console.log(`tokenfit demo: http://localhost:${actual}/`);
});
