// What a page downloads, as headless Chromium fetched it: a page counting
// "Hello world" with o200k_base, built by Vite (the version pinned in the
// Makefile, from build/js-bundlers) from the packed package, served on
// 127.0.0.1 compressed as a static host would serve it (gzip -9, then
// brotli -q 11), and everything the page fetched until its count summed as
// it came over the wire (HTML, JS, module, table):
//
//   tokenfit, init()               the default start: tokenfit-lite.wasm (the lean module,
//                                  which moves to the full one only when a call needs it) + o200k_base
//   tokenfit, counting only        tokenfit/explicit with the lean module + o200k_base
//   gpt-tokenizer, o200k_base      gpt-tokenizer/encoding/o200k_base (js/node_modules)
//
//   make bench-js      (node js/scripts/bench-page.mjs, after bench.mjs)

import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const js = fileURLToPath(new URL('../', import.meta.url));
const bundlers = process.env.TOKENFIT_BUNDLERS || fileURLToPath(new URL('../../build/js-bundlers/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const pages = {
  'tokenfit, init() (lean first)': `import { init } from 'tokenfit';
init().then((tf) => { document.body.dataset.count = tf.countTokens('Hello world'); });`,
  'tokenfit, counting only (lean module)': `import { init } from 'tokenfit/explicit';
import lite from 'tokenfit/assets/lite';
import o200k_base from 'tokenfit/assets/o200k_base';
init({ module: lite(), encodings: { o200k_base: o200k_base() } }).then((tf) => { document.body.dataset.count = tf.countTokens('Hello world'); });`,
  'gpt-tokenizer, o200k_base': `import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
document.body.dataset.count = countTokens('Hello world');`,
};

const encoders = {
  gzip: (b) => gzipSync(b, { level: 9 }),
  br: (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
};
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

// serve serves dist compressed with one encoding when the browser accepts
// it (identity otherwise), every file compressed before the first request.
function serve(dist, encoding) {
  const compressed = new Map(readdirSync(dist, { recursive: true }).map((f) => join(dist, f)).filter((f) => statSync(f).isFile())
    .map((f) => [f, encoders[encoding](readFileSync(f))]));
  const server = createServer((req, res) => {
    let path = new URL(req.url, 'http://x').pathname;
    if (path.endsWith('/')) path += 'index.html';
    const file = join(dist, path);
    if (!compressed.has(file)) return res.writeHead(404).end();
    const accepted = (req.headers['accept-encoding'] || '').split(',').map((s) => s.trim().split(';')[0]).includes(encoding);
    const headers = { 'content-type': types[extname(file)] || 'application/octet-stream' };
    if (accepted) headers['content-encoding'] = encoding;
    res.writeHead(200, headers).end(accepted ? compressed.get(file) : readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function build(dir, tarball, code) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules/tokenfit'), { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', join(dir, 'node_modules/tokenfit'), '--strip-components=1']);
  cpSync(join(js, 'node_modules/gpt-tokenizer'), join(dir, 'node_modules/gpt-tokenizer'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private": true, "type": "module"}\n');
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<meta charset="utf-8">\n<script type="module" src="./main.js"></script>\n');
  writeFileSync(join(dir, 'main.js'), code + '\n');
  execFileSync(join(bundlers, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], { cwd: dir });
  return join(dir, 'dist');
}

if (!existsSync(join(bundlers, 'node_modules/.bin/vite')) || !existsSync(CHROMIUM)) {
  console.log(`\nWhat a page downloads: skipped (needs make js-bundlers and ${CHROMIUM})`);
  process.exit(0);
}
const tmp = mkdtempSync(join(tmpdir(), 'tokenfit-page-'));
const tarball = join(tmp, execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], { cwd: js, encoding: 'utf8' }).trim().split('\n').pop());
const apps = join(bundlers, 'apps');
const { chromium } = await import(pathToFileURL(join(bundlers, 'node_modules/playwright-core/index.mjs')).href);
const browser = await chromium.launchPersistentContext(join(tmp, 'profile'), {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

const MB = 1e6;
const results = {};
try {
  let i = 0;
  for (const [name, code] of Object.entries(pages)) {
    const dist = build(join(apps, `page-${i++}`), tarball, code);
    results[name] = {};
    for (const encoding of Object.keys(encoders)) {
      const server = await serve(dist, encoding);
      const page = await browser.newPage();
      const done = [];
      page.on('requestfinished', (r) => done.push(r.sizes().then((s) => ({ url: r.url(), body: s.responseBodySize, encoded: r.headers() }))));
      const responses = new Map();
      page.on('response', (r) => responses.set(r.url(), r.headers()['content-encoding'] || 'identity'));
      await page.goto(`http://127.0.0.1:${server.address().port}/`, { timeout: 120000 });
      const count = await page.waitForFunction(() => document.body.dataset.count, null, { timeout: 120000 }).then((h) => h.jsonValue());
      if (count !== '2') throw new Error(`${name}: counted ${count}, not 2`);
      await page.waitForLoadState('networkidle');
      const fetched = await Promise.all(done);
      results[name][encoding] = {
        bytes: fetched.reduce((n, f) => n + f.body, 0),
        files: fetched.length,
        as: [...new Set(fetched.map((f) => responses.get(f.url)))].join('+'),
      };
      await page.close();
      server.close();
    }
  }
} finally {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
}

console.log('\nWhat a page downloads, as headless Chromium fetched it (a Vite build counting "Hello world", o200k_base;');
console.log('every response body until the count, as sent: gzip -9 / brotli -q 11 when the browser accepts it):\n');
const gpt = results['gpt-tokenizer, o200k_base'];
for (const [name, r] of Object.entries(results)) {
  const cell = (e) => `${(r[e].bytes / MB).toFixed(3)} MB ${r[e].as}`.padStart(20) + (r !== gpt ? ` (${(r[e].bytes / gpt[e].bytes).toFixed(2)}× gpt-tokenizer's)` : '').padEnd(26);
  console.log(`${name.padEnd(40)}${cell('gzip')}${cell('br')}  ${r.gzip.files} files`);
}
const target = (name, limit) => {
  const x = results[name].gzip.bytes / MB;
  console.log(`${(name + ', gzip MB').padEnd(52)}${x.toFixed(3).padStart(9)}  ≤ ${limit}   ${x <= limit ? 'met' : 'MISSED'}`);
};
console.log('\nTargets (what the page downloads, gzip):\n');
target('tokenfit, init() (lean first)', 1.3);
target('tokenfit, counting only (lean module)', 1.3);
