// The modules' memory images (dist/<name>.mem, js/scripts/memory-image.mjs):
// Node reads the package's modules without their data section and the
// image straight into the instance's memory (src/image.js). Held here: the
// memory is then byte for byte what the data segments give, and an image
// that was not made from the module beside it is never used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readImaged } from '../src/image.js';
import { memoryImage, samplesAt } from '../scripts/memory-image.mjs';
import { wasiShim } from '../src/wasi.js';

const dist = new URL('../dist/', import.meta.url);
const MODULES = ['tokenfit-nohf.wasm', 'tokenfit.wasm', 'tokenfit-lite.wasm'];

// memoryAfter instantiates bytes (no _initialize: the memory as the module
// starts) and gives the memory's bytes once image (if any) has run.
function memoryAfter(bytes, image) {
  const shim = wasiShim();
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), shim.imports);
  if (image) image(instance.exports.memory);
  return new Uint8Array(instance.exports.memory.buffer);
}

for (const name of MODULES) {
  test(`${name}: the module without its data section plus its image is the memory the data segments give`, () => {
    const url = new URL(name, dist);
    const whole = readFileSync(url);
    assert.deepEqual(readFileSync(new URL(name.replace('.wasm', '.mem'), dist)), memoryImage(whole), 'the shipped image is made from the shipped module');
    const imaged = readImaged(fs, url);
    assert.ok(imaged, 'the image is taken');
    assert.ok(imaged.bytes.length < whole.length);
    assert.equal(WebAssembly.validate(imaged.bytes), true);
    const want = memoryAfter(whole);
    const got = memoryAfter(imaged.bytes, imaged.image);
    assert.equal(got.length, want.length);
    assert.ok(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)), 'the memories differ');
  });
}

test('an image is used only with the module it was made from', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-image-'));
  try {
    const mod = join(dir, 'm.wasm');
    const mem = join(dir, 'm.mem');
    const url = pathToFileURL(mod);
    const whole = readFileSync(new URL('tokenfit-nohf.wasm', dist));
    const image = memoryImage(whole);
    writeFileSync(mod, whole);
    assert.equal(readImaged(fs, url), undefined, 'no image beside the module');
    writeFileSync(mem, image);
    assert.ok(readImaged(fs, url));
    // Another module of the same length, its data changed where the image
    // samples it (a window in the registry, say).
    for (const from of samplesAt(image.readUInt32LE(12), image.readUInt32LE(16))) {
      const other = Buffer.from(whole);
      other[from + 63] ^= 1;
      writeFileSync(mod, other);
      assert.equal(readImaged(fs, url), undefined, `a module whose data differs at ${from + 63}`);
    }
    writeFileSync(mod, Buffer.concat([whole, Buffer.from([0])]));
    assert.equal(readImaged(fs, url), undefined, 'a module of another length');
    writeFileSync(mod, whole);
    const wrongEnd = Buffer.from(image);
    wrongEnd.writeUInt32LE(image.readUInt32LE(16) - 1, 16);
    writeFileSync(mem, wrongEnd);
    assert.equal(readImaged(fs, url), undefined, 'an image that places the data section elsewhere');
    writeFileSync(mem, image.subarray(0, 20));
    assert.equal(readImaged(fs, url), undefined, 'an image cut short in its header');
    // Cut short in its pages: the module is read, and writing the image
    // into the memory then fails with a TokenfitError, never a partial start.
    writeFileSync(mem, image.subarray(0, image.length - 4096));
    const cut = readImaged(fs, url);
    assert.throws(() => memoryAfter(cut.bytes, cut.image), (e) => e.code === 'invalid_argument' && /cut short/.test(e.message));
    copyFileSync(new URL('tokenfit-lite.mem', dist), mem);
    assert.equal(readImaged(fs, url), undefined, 'another module\'s image');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
