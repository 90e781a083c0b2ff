// Benchmarks the JSON API over HTTP on loopback: `tokenfit serve` on the
// native core and on the module in wazero (--runtime wasm), the npm
// package's edge handler in Node (nodeListener), and the example Worker
// in workerd. Each takes the same mixed requests (test/http.mjs) from 16
// kept-alive clients, every answer checked, after a warm-up; the table
// gives requests/s and latency p50/p99, and the ratio to serve native.
//
//   node js/scripts/bench-serve.mjs build/bin/tokenfit build/js-runtimes [REQUESTS]
//
// make bench-serve builds the CLI, the package and the runtimes first.

import http from 'node:http';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createHandler, nodeListener } from '../dist/esm/edge-node.js';
import { load } from '../test/load.mjs';
import { loadRequests, startWorker } from '../test/http.mjs';

const [cli = 'build/bin/tokenfit', runtimes = 'build/js-runtimes', total = '20000'] = process.argv.slice(2);
const connections = 16;
const perConnection = Math.ceil(Number(total) / connections);

// serve starts tokenfit serve on a free port: its port and how to stop it.
function serve(runtime) {
  const p = spawn(resolve(cli), ['serve', '--addr', '127.0.0.1:0', '--runtime', runtime], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolvePort, reject) => {
    let buf = '';
    p.stderr.on('data', (d) => {
      buf += d;
      const m = /"msg":"serving","addr":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(buf);
      if (m) {
        buf = '';
        p.stderr.removeAllListeners('data');
        p.stderr.resume(); // the access log, unread
        resolvePort({ port: Number(m[1]), stop: () => p.kill('SIGTERM') });
      }
    });
    p.on('exit', (code) => reject(new Error(`tokenfit serve exited (${code}): ${buf}`)));
  });
}

async function node() {
  const server = http.createServer(nodeListener(createHandler()));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, stop: () => server.close() };
}

const targets = [
  ['tokenfit serve (native)', () => serve('native')],
  ['tokenfit serve --runtime wasm', () => serve('wasm')],
  ['tokenfit/edge in Node', node],
  ['tokenfit/edge in workerd', () => startWorker(resolve(runtimes))],
];
const request = await loadRequests('');
const rows = [];
for (const [name, start] of targets) {
  const { port, stop } = await start();
  try {
    await load({ port, connections, perConnection: 30, request }); // warm-up
    const r = await load({ port, connections, perConnection, request });
    if (r.errors) throw new Error(`${name}: ${r.errors} wrong answers: ${r.firstErrors.join('\n')}`);
    rows.push({ name, ...r });
  } finally {
    stop();
  }
}
const base = rows[0].perSecond;
console.log(`\n${connections} clients × ${perConnection} mixed requests each, every answer checked\n`);
console.log(`${'server'.padEnd(32)} ${'requests/s'.padStart(10)} ${'× native'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
for (const r of rows) {
  console.log(`${r.name.padEnd(32)} ${String(r.perSecond).padStart(10)} ${(r.perSecond / base).toFixed(2).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)}`);
}
