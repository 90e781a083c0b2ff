// The TypeScript types compile as the README uses them, and refuse misuse
// (test/types-check.ts, with tsc --noEmit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../', import.meta.url));

test('tsc --noEmit on test/types-check.ts', async () => {
  const out = await new Promise((resolve) => {
    execFile(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'test/tsconfig.json'], { cwd: js }, (err, stdout, stderr) => resolve({ err, stdout, stderr }));
  });
  assert.equal(out.err, null, out.stdout + out.stderr);
});
