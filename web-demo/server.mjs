// A small static server for dist/: correct types (application/wasm for
// WebAssembly, so that browsers compile while downloading), gzip for what
// compresses, ETags so that a reload revalidates instead of downloading
// again, nothing from the network.
//
//   PORT=8080 node server.mjs      (PORT=0 picks a free port; the URL is printed)

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';

const dist = fileURLToPath(new URL('./dist/', import.meta.url));
const port = Number(process.env.PORT ?? 8080);

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.tkt': 'application/octet-stream',
  '.tkp': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.wasm', '.tkt', '.tkp', '.svg', '.txt']);

// One entry per file and modification time: its bytes and, once made, its
// gzip (level 9, made once: the wasm module shrinks from 4.4 to 1.2 MB).
const cache = new Map();
const gz = promisify(gzip);

async function load(file) {
  const st = await stat(file);
  if (!st.isFile()) return null;
  const key = `${file}:${st.mtimeMs}:${st.size}`;
  let e = cache.get(file);
  if (!e || e.key !== key) {
    const body = await readFile(file);
    const ext = extname(file);
    const etag = `"${st.size.toString(36)}-${Math.round(st.mtimeMs).toString(36)}"`;
    e = { key, body, ext, etag, gzip: compressible.has(ext) ? gz(body, { level: 9 }) : null };
    cache.set(file, e);
  }
  return e;
}

const server = createServer(async (req, res) => {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(dist, path));
    if (!file.startsWith(dist.endsWith(sep) ? dist : dist + sep)) {
      res.writeHead(403).end();
      return;
    }
    const e = await load(file).catch(() => null);
    if (!e) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const headers = {
      'Content-Type': types[e.ext] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache', // revalidate: a rebuilt page is never stale
      ETag: e.etag,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
    };
    if (req.headers['if-none-match'] === e.etag) {
      res.writeHead(304, headers).end();
      return;
    }
    let body = e.body;
    if (e.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      body = await e.gzip;
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${err.message}\n`);
  }
});

// localhost is 127.0.0.1 for some clients and ::1 for others: listen on both.
server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address();
  const v6 = createServer(server.listeners('request')[0]);
  v6.on('error', () => {}); // no IPv6 here: 127.0.0.1 is enough
  v6.listen(actual, '::1');
  console.log(`tokenfit demo: http://localhost:${actual}/`);
});
