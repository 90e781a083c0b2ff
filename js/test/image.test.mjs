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
import { Refused } from '../src/errors.js';
import { memoryImage, samplesAt } from '../scripts/memory-image.mjs';
import { HEAD, parseHead } from '../src/image-format.js';
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
    // into the memory then is Refused (init() starts again from the module
    // read whole), never a partial start.
    writeFileSync(mem, image.subarray(0, image.length - 4096));
    const cut = readImaged(fs, url);
    assert.throws(() => memoryAfter(cut.bytes, cut.image), (e) => e instanceof Refused && /cut short/.test(e.message));
    // Another identity: a module built otherwise with the same data.
    const foreign = Buffer.from(image);
    foreign[64] ^= 1;
    writeFileSync(mem, foreign);
    assert.equal(readImaged(fs, url), undefined, 'an image of another module');
    copyFileSync(new URL('tokenfit-lite.mem', dist), mem);
    assert.equal(readImaged(fs, url), undefined, 'another module\'s image');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The loaded image (dist/tokenfit-nohf.o200k_base.mem, js/scripts/loaded-image.mjs):
// the default module's memory after _initialize and o200k_base's load from
// the package's own table, which Node's default init() starts from.
const LOADED = 'tokenfit-nohf.o200k_base.mem';

test('the loaded image is made again byte for byte from the shipped module and tables', async () => {
  const { loadedImage } = await import('../scripts/loaded-image.mjs');
  const shipped = readFileSync(new URL(LOADED, dist));
  assert.ok(loadedImage(new URL('tokenfit-nohf.wasm', dist).pathname).equals(shipped));
  assert.equal(shipped.readUInt32LE(4), 4);
  assert.deepEqual(parseHead(shipped).holds, ['o200k_base']);
  assert.ok(shipped.readUInt32LE(24) * 65536 > readFileSync(new URL('tokenfit-nohf.wasm', dist)).length, 'the memory has grown by the table');
});

// started gives a started instance of the default module from the loaded
// image, with random bytes from random (the shim's default when undefined).
function started(random) {
  const imaged = readImaged(fs, new URL('tokenfit-nohf.wasm', dist), 'o200k_base');
  const shim = wasiShim(random ? { random } : {});
  const instance = new WebAssembly.Instance(new WebAssembly.Module(imaged.bytes), shim.imports);
  shim.setMemory(instance.exports.memory);
  assert.deepEqual(imaged.image(instance.exports.memory), ['o200k_base']);
  instance.exports._initialize();
  return new Uint8Array(instance.exports.memory.buffer);
}

test('every instance from the loaded image draws its own random state, and nothing else varies', () => {
  const a = started();
  const b = started();
  assert.equal(a.length, b.length);
  let differ = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
  assert.ok(differ > 0 && differ < 2048, `${differ} bytes differ between two instances`);
  const fixed = (view) => (view.fill(42), true);
  assert.ok(Buffer.from(started(fixed).buffer).equals(Buffer.from(started(fixed).buffer)), 'the same random bytes, the same memory');
});

const SAMPLE = [
  'Hello world! The quick brown fox jumps over the lazy dog. 12345 67890',
  'Привет, мир! Съешь же ещё этих мягких французских булок.',
  'こんにちは世界。東京タワーに行きましょう。你好，世界！我们今天去北京大学吧。',
  'مرحبا بالعالم! كيف حالك اليوم؟ नमस्ते दुनिया! आप कैसे हैं? 안녕하세요 세계',
  '🎉🚀👩‍👩‍👧‍👦 emoji 😀 and code: func main() { fmt.Println("hi") }\n\n\n    indented\t\ttabs don\'t we\'ll',
].join('\n');

test('init() started from the loaded image counts as tiktoken does; other encodings load on top', async () => {
  const { init } = await import('tokenfit');
  const { get_encoding } = await import('tiktoken');
  const tf = await init({});
  assert.deepEqual(tf.encodings().filter((e) => e.loaded).map((e) => e.name), ['o200k_base'], 'o200k_base is loaded by the image');
  for (const name of ['o200k_base', 'cl100k_base']) {
    const official = get_encoding(name);
    try {
      for (const text of [SAMPLE, ...SAMPLE.split('\n'), '']) {
        assert.equal(tf.countTokens(text, { encoding: name }), official.encode_ordinary(text).length, `${name}: ${text.slice(0, 30)}`);
      }
      assert.deepEqual(tf.encode(SAMPLE, { encoding: name }), [...official.encode_ordinary(SAMPLE)]);
    } finally {
      official.free();
    }
  }
  assert.deepEqual(tf.encodings().filter((e) => e.loaded).map((e) => e.name), ['o200k_base', 'cl100k_base']);
  // A long text streams through the module with the image's encoding too.
  const long = SAMPLE.repeat(2000);
  const official = get_encoding('o200k_base');
  try {
    assert.equal(tf.countTokens(long), official.encode_ordinary(long).length);
  } finally {
    official.free();
  }
});

test('init() whose options do not load the package\'s own o200k_base starts from the plain image', async () => {
  const { init } = await import('tokenfit');
  const only = await init({ encodings: ['cl100k_base'] });
  assert.deepEqual(only.encodings().filter((e) => e.loaded).map((e) => e.name), ['cl100k_base']);
  const tables = await init({ tables: new URL('tables/', dist) });
  assert.deepEqual(tables.encodings().filter((e) => e.loaded).map((e) => e.name), []);
  assert.equal(tables.countTokens('Hello world'), 2);
  const both = await init({ encodings: ['o200k_base', 'r50k_base'] });
  assert.deepEqual(both.encodings().filter((e) => e.loaded).map((e) => e.name), ['o200k_base', 'r50k_base']);
});

test('a loaded image is used only with its module, and one cut short fails', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-loaded-'));
  try {
    const mod = join(dir, 'm.wasm');
    const mem = join(dir, 'm.o200k_base.mem');
    const url = pathToFileURL(mod);
    const whole = readFileSync(new URL('tokenfit-nohf.wasm', dist));
    const image = readFileSync(new URL(LOADED, dist));
    writeFileSync(mod, whole);
    assert.equal(readImaged(fs, url, 'o200k_base'), undefined, 'no loaded image beside the module');
    writeFileSync(mem, image);
    assert.ok(readImaged(fs, url, 'o200k_base'));
    assert.equal(readImaged(fs, url), undefined, 'the loaded image is not the plain one');
    const other = Buffer.from(whole);
    const from = samplesAt(image.readUInt32LE(12), image.readUInt32LE(16))[7];
    other[from] ^= 1;
    writeFileSync(mod, other);
    assert.equal(readImaged(fs, url, 'o200k_base'), undefined, 'another module of the same length');
    writeFileSync(mod, whole);
    copyFileSync(new URL('tokenfit-nohf.mem', dist), mem);
    assert.equal(readImaged(fs, url, 'o200k_base'), undefined, 'a plain image under the loaded one\'s name');
    writeFileSync(mem, image.subarray(0, image.length - 4096));
    const cut = readImaged(fs, url, 'o200k_base');
    const shim = wasiShim();
    const instance = new WebAssembly.Instance(new WebAssembly.Module(cut.bytes), shim.imports);
    assert.throws(() => cut.image(instance.exports.memory), (e) => e instanceof Refused && /cut short/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Damage anywhere in the loaded image: a flipped byte in its header, its
// run list, the samples, the pages the data segments fill, the table's and
// its index's pages or the heap the load left. Each is refused (not taken,
// or Refused once its pages are in memory: init() then starts from the
// module read whole) or, where it lies in bytes no part of the image's
// meaning depends on (the header's reserved words), changes nothing.
test('a loaded image with a flipped byte anywhere is refused, never trusted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-flip-'));
  try {
    const mod = join(dir, 'm.wasm');
    const mem = join(dir, 'm.o200k_base.mem');
    const url = pathToFileURL(mod);
    copyFileSync(new URL('tokenfit-nohf.wasm', dist), mod);
    const image = readFileSync(new URL(LOADED, dist));
    const head = parseHead(image);
    const pagesAt = HEAD + 8 * head.runs;
    const reserved = (i) => (i >= 40 && i < 64) || (i >= 96 && i < 128);
    let seed = 7;
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    // Every header byte, then 240 random places in the pages (the first
    // runs hold the module's data, the middle the table, the end the heap).
    const places = [...Array.from({ length: pagesAt }, (_, i) => i).filter((i) => i < 128 || i >= HEAD || i % 61 === 0),
      ...Array.from({ length: 240 }, () => pagesAt + rand(image.length - pagesAt))];
    let refused = 0;
    for (const at of places) {
      const b = Buffer.from(image);
      b[at] ^= 1 << rand(8);
      writeFileSync(mem, b);
      const imaged = readImaged(fs, url, 'o200k_base');
      if (imaged === undefined) {
        refused++;
        continue;
      }
      const instance = new WebAssembly.Instance(new WebAssembly.Module(imaged.bytes), wasiShim().imports);
      try {
        imaged.image(instance.exports.memory);
      } catch (e) {
        assert.ok(e instanceof Refused, `a flip at ${at}: ${e}`);
        refused++;
        continue;
      }
      assert.ok(reserved(at), `a flip at byte ${at} of the image was taken`);
    }
    assert.ok(refused >= places.length - 56, `${refused} of ${places.length} refused`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The same through init(): a copy of the package whose loaded image has a
// flipped byte (in the data's pages, the table's, the heap's, the header)
// counts as official tiktoken, every time.
test('init() from a package whose loaded image is damaged counts right', async () => {
  const { get_encoding } = await import('tiktoken');
  const root = mkdtempSync(join(tmpdir(), 'tokenfit-pkg-'));
  try {
    const copy = new URL(`file://${root}/dist/`);
    fs.cpSync(new URL('esm/', dist), new URL('esm/', copy), { recursive: true });
    for (const f of ['tokenfit-nohf.wasm', 'tokenfit-nohf.mem', 'tables/o200k_base.tkt', 'tables/o200k_base.tkx']) {
      fs.mkdirSync(new URL('.', new URL(f, copy)), { recursive: true });
      copyFileSync(new URL(f, dist), new URL(f, copy));
    }
    const { init } = await import(new URL('esm/node.js', copy).href);
    const image = readFileSync(new URL(LOADED, dist));
    const head = parseHead(image);
    const pagesAt = HEAD + 8 * head.runs;
    const pages = image.length - pagesAt;
    const official = get_encoding('o200k_base');
    const want = official.encode_ordinary(SAMPLE).length;
    official.free();
    for (const at of [8, 20, 24, 28, 32, 70, HEAD + 4, pagesAt + 100, pagesAt + (pages >> 3), pagesAt + (pages >> 1), pagesAt + pages - 5000, image.length - 1]) {
      const b = Buffer.from(image);
      b[at] ^= 0x10;
      writeFileSync(new URL(LOADED, copy), b);
      const tf = await init({});
      assert.equal(tf.countTokens(SAMPLE), want, `a flip at byte ${at}`);
      assert.equal(tf.countTokens(SAMPLE), want, `a flip at byte ${at}, again`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
