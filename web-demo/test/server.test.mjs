// server.mjs over the built dist/: the precompressed files, the caching,
// the headers on every answer, and what it refuses (a malformed escape, a
// symbolic link, a foreign Host, another method).
//
//   node --test test/server.test.mjs     (from web-demo/, once dist/ is built)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

const here = fileURLToPath(new URL('..', import.meta.url));
const dist = `${here}dist/`;
const links = [`${dist}link-out.txt`, `${dist}link-in.html`, `${dist}linkdir`];
let server, port;

before(async () => {
  for (const l of links) rmSync(l, { force: true }); // left by a run that was killed
  symlinkSync('/etc/hostname', links[0]);
  symlinkSync(`${dist}index.html`, links[1]);
  symlinkSync(dist, links[2]);
  server = spawn(process.execPath, ['server.mjs'], { cwd: here, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/localhost:(\d+)\//);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`server.mjs exited with ${code}`)));
  });
});

after(() => {
  server?.kill();
  for (const l of links) rmSync(l, { force: true });
});

// get sends a raw request (a Host of our choosing, a path not normalised).
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { Host: `localhost:${port}`, ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function securityHeaders(r, what) {
  assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(r.headers['referrer-policy'], 'no-referrer', what);
  const csp = r.headers['content-security-policy'] ?? '';
  for (const d of ["frame-ancestors 'none'", "script-src 'self' 'wasm-unsafe-eval'", "require-trusted-types-for 'script'", "object-src 'none'"]) {
    assert.ok(csp.includes(d), `${what}: the CSP has no ${d}: ${csp}`);
  }
}

const assetDir = () => `assets/${readdirSync(`${dist}assets`)[0]}/`;

test('precompressed brotli and gzip, made at build time, equal the file', async () => {
  const wasm = `/${assetDir()}tokenfit.wasm`;
  const raw = readFileSync(`${dist}${wasm.slice(1)}`);
  const br = await get(wasm, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-type'], 'application/wasm');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(brotliDecompressSync(br.body).equals(raw));
  const gz = await get(wasm, { 'Accept-Encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(gz.body).equals(raw));
  const none = await get(wasm, { 'Accept-Encoding': 'br;q=0, identity' });
  assert.equal(none.headers['content-encoding'], undefined);
  assert.ok(none.body.equals(raw));
  console.log(`# tokenfit.wasm: ${raw.length} bytes, br ${br.body.length}, gzip ${gz.body.length}`);
  // What a first visit downloads until the count is on screen, then after it.
  const first = ['', 'boot.js', 'main.css', 'main.js', `${assetDir()}tokenfit-lite.wasm`, `${assetDir()}tables/o200k_base.tkt`];
  const then = ['worker.js', `${assetDir()}tokenfit.wasm`];
  const sizes = {};
  for (const p of [...first, ...then, `${assetDir()}tables/o200k_base.tkp`]) {
    const r = await get(`/${p}`, { 'Accept-Encoding': 'br' });
    assert.equal(r.status, 200, p);
    assert.equal(r.headers['content-encoding'], 'br', p);
    sizes[p] = r.body.length;
  }
  const kb = (ps) => `${Math.round(ps.reduce((n, p) => n + sizes[p], 0) / 1024)} KB`;
  console.log(`# a first visit downloads, brotli: ${kb(first)} to the first count (${first.map((p) => `${p.replace(/.*\//, '') || 'index.html'} ${Math.round(sizes[p] / 1024)}`).join(', ')}), then ${kb(then)} (the jobs worker and the full module)`);
  // The compressed files themselves are not pages.
  assert.equal((await get('/main.js.br')).status, 404);
});

test('content-addressed assets are immutable; the rest revalidates by ETag', async () => {
  const a = await get(`/${assetDir()}tokenfit.wasm`);
  assert.match(a.headers['cache-control'], /immutable/);
  assert.match(a.headers['cache-control'], /max-age=31536000/);
  const page = await get('/');
  assert.equal(page.headers['cache-control'], 'no-cache');
  const etag = page.headers.etag;
  assert.match(etag, /^"[\w-]+"$/);
  const again = await get('/', { 'If-None-Match': etag });
  assert.equal(again.status, 304);
  securityHeaders(again, '304');
  assert.equal((await get('/', { 'If-None-Match': '"other"' })).status, 200);
});

test('every answer carries nosniff, the CSP with frame-ancestors and Referrer-Policy', async () => {
  securityHeaders(await get('/'), '200');
  securityHeaders(await get('/nope.js'), '404');
  securityHeaders(await get('/', {}, 'POST'), '405');
  securityHeaders(await get('/%E0%A4%A'), '400');
  securityHeaders(await get('/', { Host: 'evil.example' }), '421');
});

test('a malformed % escape is 400, not 500', async () => {
  for (const p of ['/%E0%A4%A', '/%', '/%zz', '/main.js%']) assert.equal((await get(p)).status, 400, p);
});

test('no symbolic link is followed, out of dist/ or inside it; no path leaves dist/', async () => {
  for (const p of ['/link-out.txt', '/link-in.html', '/linkdir/index.html', '/linkdir/', '/..%2f..%2fMakefile', '/../Makefile', '/%2e%2e/Makefile', '/assets/']) {
    assert.equal((await get(p)).status, 404, p);
  }
  assert.equal((await get('/index.html')).status, 200);
});

test('only localhost names are answered (DNS rebinding); only GET and HEAD', async () => {
  for (const h of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', `LOCALHOST:${port}`]) {
    assert.equal((await get('/', { Host: h })).status, 200, h);
  }
  for (const h of ['evil.example', `evil.example:${port}`, `localhost:${port + 1}`, `localhost.evil.example:${port}`]) {
    assert.equal((await get('/', { Host: h })).status, 421, `Host: ${h}`);
  }
  const head = await get('/', {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  const post = await get('/', {}, 'POST');
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
});
