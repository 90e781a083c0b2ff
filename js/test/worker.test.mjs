// tokenfit/worker in Node when things go wrong: an argument that cannot be
// posted leaves nothing pending (the process still exits by itself), and a
// worker that exits or is terminated from outside rejects every call under
// way and every later one, instead of leaving them unsettled for ever.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorker } from 'tokenfit/worker';

const entry = new URL('../dist/esm/worker-entry-node.js', import.meta.url);

// exits runs script as a module in a fresh Node and resolves with its
// output once it exits by itself; a process kept alive by a referenced
// worker is killed after a minute and fails.
function exits(script) {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-worker-'));
  const file = join(dir, 'script.mjs');
  writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: 60000 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true });
      if (err) reject(new Error(`${err.killed ? 'still running after a minute' : err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

test('an argument that cannot be posted rejects, and the process still exits by itself', async () => {
  const out = await exits(`
    import { createWorker } from ${JSON.stringify(new URL('../dist/esm/worker-node.js', import.meta.url).href)};
    const tf = await createWorker();
    console.log(await tf.countTokens('Hello world'));
    await tf.countTokens(() => 1).catch((e) => console.log(e.code));
    await tf.countTokens('a', { encoding: Symbol('x') }).catch((e) => console.log(e.code));
  `);
  assert.deepEqual(out.trim().split('\n'), ['2', 'invalid_argument', 'invalid_argument']);
});

test('a worker terminated from outside rejects every pending call, and every later one', async () => {
  const worker = new Worker(entry);
  const tf = await createWorker({ worker });
  assert.equal(await tf.countTokens('Hello world'), 2);
  const big = 'lorem ipsum dolor sit amet '.repeat(200000);
  const pending = [tf.countTokens(big), tf.countTokens(big), tf.version()];
  await worker.terminate();
  for (const p of pending) {
    await assert.rejects(p, (e) => e.name === 'TokenfitError' && e.code === 'internal' && /exited/.test(e.message));
  }
  await assert.rejects(tf.countTokens('x'), { code: 'internal' });
});

test('a worker whose thread exits by itself rejects what is pending', async () => {
  // The thread exits (process.exit in it) on the first version() call,
  // before the worker's own handler answers it (which it does a microtask
  // later).
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(entry.href)}).then(() => {
      parentPort.on('message', (m) => { if (m.fn === 'version') process.exit(3); });
    });
  `, { eval: true });
  const tf = await createWorker({ worker });
  assert.equal(await tf.countTokens('Hello world'), 2);
  const pending = [tf.version(), tf.countTokens('Hello world')];
  for (const p of pending) await assert.rejects(p, { code: 'internal', message: /exited with code 3/ });
  await assert.rejects(tf.countTokens('x'), { code: 'internal' });
  tf.terminate(); // after the exit: throws nothing
});
