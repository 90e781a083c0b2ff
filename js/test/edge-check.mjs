// tokenfit/edge in Deno (Deno.serve) and Bun (Bun.serve): `deno run
// --allow-read --allow-net=127.0.0.1 edge-check.mjs` and `bun
// edge-check.mjs` serve the handler on a loopback port, send it the hostile
// HTTP cases (testdata/http/hostile.json), the request targets of
// testdata/http/routes.json (raw, over node:net) and 16 clients × 100 mixed
// requests (test/http.mjs), every answer checked, and print one line
// "RESULT <json>" with the failures. edge.test.mjs runs them.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { createHandler } from '../dist/esm/edge-node.js';
import { loadRequests } from './http.mjs';

const runtime = typeof Deno !== 'undefined' ? 'deno' : typeof Bun !== 'undefined' ? 'bun' : 'node';
const hostile = JSON.parse(readFileSync(new URL('../../testdata/http/hostile.json', import.meta.url), 'utf8'));
const routes = JSON.parse(readFileSync(new URL('../../testdata/http/routes.json', import.meta.url), 'utf8'));
const fetchHandler = createHandler({ maxBodyBytes: 1 << 20 });

let port;
let stop;
if (runtime === 'deno') {
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, (r) => fetchHandler(r));
  port = server.addr.port;
  stop = () => server.shutdown();
} else {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => fetchHandler(r) });
  port = server.port;
  stop = () => server.stop(true);
}
const base = `http://127.0.0.1:${port}`;
const failures = [];
for (const c of hostile) {
  const body = c.textBytes ? `{"text": "${'a'.repeat(c.textBytes)}"}` : c.body;
  const hasBody = c.method !== 'GET' && c.method !== 'HEAD' && body !== '';
  const r = await fetch(base + c.path, { method: c.method, headers: c.contentType ? { 'Content-Type': c.contentType } : {}, body: hasBody ? body : undefined });
  const a = await r.json().catch(() => ({}));
  if (r.status !== c.status || a.error?.code !== c.code || (r.headers.get('Allow') ?? '') !== c.allow) {
    failures.push(`${c.name}: ${r.status} ${JSON.stringify(a).slice(0, 200)} Allow ${r.headers.get('Allow')}`);
  }
}
// raw sends one request with its target as written (fetch would resolve
// its dot segments) and returns the status, the Allow header and the body.
function raw(method, target, body) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const chunks = [];
    sock.on('connect', () => {
      const head = body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '';
      sock.write(`${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${head}\r\n${body}`);
    });
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', reject);
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const at = text.indexOf('\r\n\r\n');
      const allow = /\r\nallow: *([^\r]*)/i.exec(text.slice(0, at))?.[1] ?? '';
      resolve({ status: Number(text.split(' ')[1]), allow, body: text.slice(at + 4) });
    });
  });
}
for (const c of routes) {
  const r = await raw(c.method, c.target, c.method === 'POST' ? '{"text": "Hello world"}' : '');
  const code = /"code":"([a-z_]+)"/.exec(r.body)?.[1] ?? '';
  if (r.status !== c.status || code !== c.code || r.allow !== (c.allow ?? '')) {
    failures.push(`${c.name} (${c.method} ${c.target}): ${r.status} ${r.body.slice(0, 200)} Allow ${r.allow}`);
  }
}
const request = await loadRequests('');
let requests = 0;
await Promise.all(Array.from({ length: 16 }, async (_, c) => {
  for (let k = 0; k < 100; k++) {
    const q = request(c * 100 + k);
    const r = await fetch(base + q.path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: q.body });
    const why = q.judge(r.status, await r.json());
    requests++;
    if (why && failures.length < 20) failures.push(why);
  }
}));
await stop();
console.log(`RESULT ${JSON.stringify({ runtime, requests, failures })}`);
if (failures.length) (typeof Deno !== 'undefined' ? Deno : process).exit(1);
