// Regenerates testdata/vectors/tokens.json from the official tiktoken (npm
// `tiktoken`, OpenAI's Rust core compiled to WebAssembly): for every input
// text and every encoding, the token ids (for texts up to 4 KB) and the count.
// The Go, wazero and JavaScript tests all read that file.
//
//   cd js && npm ci && node scripts/vectors.mjs      (or: make vectors)
//
// Inputs: the edge cases below, every file of testdata/corpus/, and
// testdata/vectors/regressions.json (texts that once disagreed).
import { get_encoding } from 'tiktoken';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const encodings = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];
const idsUpTo = 1024; // bytes of text for which the ids are kept, not just the count

const edge = [
  '', 'Hello world', 'hello world', 'Hello, world!', ' ', '  ', '   ', '\n', '\n\n', '\r\n', ' \n', '\n ',
  'a  b', 'a   b', 'a\t\tb', 'a \t b', 'a\n\n b', 'a \n\n  b', 'x\n \n\ty', '  \r\n \r\n  z', '\t\n\t\n',
  '\n\t'.repeat(51), ' '.repeat(100) + 'x', '\u3000'.repeat(5) + 'x', ' '.repeat(17), '\t'.repeat(9) + 'if x:',
  "I'm here", "I'M HERE", "we'll they've she'd it's 'tis", "don'T", "DON'T", "it'ſ", "Iſ'ſ", "'s", "'S", "''s",
  "x'llx", "'re'RE're", "can't've", "y'all", "o'clock", "rock'n'roll", "HELLO'S", "Ǆ'LL",
  '1', '12', '123', '1234', '12345678901', '3.14159', '1,000,000', '٣٤٥٦', 'Ⅻ', '½¼', 'x1y2z3', '2026-11-22T00:00:00Z',
  'helloWorld', 'HelloWorld', 'HELLOworld', 'HELLO', 'hELLO', "ABCdef'S", 'ǅungla', 'ǈ', 'ʰʰʰ', 'ab\u0301cd',
  '\u0301', '\u0301\u0301abc', ' \u0301', 'e\u0301\u0302', 'Ａｂｃ', 'ÀÉÎõü', 'straße', 'İstanbul', 'ﬁne',
  '你好，世界', '日本語のテキスト', '한국어 텍스트', 'Привет, мир!', 'مرحبا بالعالم', 'שלום עולם', 'नमस्ते दुनिया',
  'สวัสดีชาวโลก', 'ሰላም ዓለም', 'Γειά σου Κόσμε', 'Ողջույն', 'ᏣᎳᎩ', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '𝟘𝟙𝟚',
  '😀', '👍🏽', '👨‍👩‍👧‍👦', '🇫🇷🇯🇵', '❤️', 'a😀b', ' 😀 ', '©®™', '→←↑↓', '1️⃣', '🏳️‍🌈',
  'func main() {\n\tfmt.Println("hi")\n}\n', 'if (a && b) { return x->y; }', '<div class="x">y</div>',
  '{"a": [1, 2, {"b": null}]}', "SELECT * FROM t WHERE x = 'y';", 'https://example.com/a/b?c=d&e=f#g',
  'path/to/file.go', '//comment\n//', 'a/\n/b', '+\n/', '  // x', '$$$', '!!!\n\n', '...\r\n\r\n', '</s>',
  '<|endoftext|>', '<|endofprompt|>', '<|fim_prefix|>x<|fim_suffix|>', '<|im_start|>user\nhi<|im_end|>',
  '\x00\x01\x02', '\x7f', '\u00a0x', 'x\u00a0', '\u2028\u2029', '\u0085', '\v\f', 'a\u200bb', '\ufeffx',
  '\ufffd', '\u{10FFFF}', '\u{E0001}', '\uE000', '𮯰', '\u31EF', '\u{1FAE9}', '\u{1FAC8}', 'Ꞔꞔ', 'ᲀ', 'ꟊ', '\u0C5D',
  '\u{13460}\u{143FA}', '\u{14194}\'t', '\u{11F00}', '\u{1E4D0}',
  'a'.repeat(1000), 'ab'.repeat(500), '^'.repeat(300), '9'.repeat(100), '🙂'.repeat(50), '漢'.repeat(200),
  ' a'.repeat(100), '.'.repeat(257), '\n'.repeat(64), ' \n'.repeat(40), '=\n'.repeat(30),
  'lone \ud800 surrogate', 'pair \ud83d\ude00 ok', 'trailing \udc00',
];

// A seeded generator, so the file changes only when the inputs do.
let seed = 0x2545f491;
function rand(n) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}
const frags = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u3000', "'s", "'T", "'ll", "'ſ", '0', '12', '345', '٣', 'the',
  ' the', 'The', 'HELLO', 'iPhone', 'ǅ', 'ʰ', '\u0301', '\u093f', '你好', 'カタカナ', '한국어', 'Привет', 'مرحبا',
  'नमस्ते', 'สวัสดี', '😀', '👍🏽', '👨‍👩‍👧', '🇯🇵', '.', ',', '!', '/', '//', '(', ')', '{', '}', '<', '>', '=', '+', '*',
  '&', '|', '^', '#', '@', '$', '%', '~', '`', '"', ';', ':', '…', '—', '<|endoftext|>', 'x->y', '\v', '\f'];
const random = [];
for (let i = 0; i < 200; i++) {
  let s = '';
  const len = [8, 30, 120, 400][rand(4)];
  while (s.length < len) {
    if (rand(12) === 0) s += String.fromCodePoint(0x80 + rand(0x2ff80));
    else s += frags[rand(frags.length)];
  }
  random.push(s);
}

const cases = [];
for (const text of edge) cases.push({ name: 'edge', text });
for (const text of random) cases.push({ name: 'random', text });
// Long repetitions, counted only: the engine must stay exact on long pieces.
for (const unit of ['a', ' ', '^', '9', '\n\t', 'ab', '漢', ' \n', "'s", '🙂']) {
  cases.push({ name: 'repeat', repeat: { unit, times: Math.ceil(20000 / unit.length) }, text: unit.repeat(Math.ceil(20000 / unit.length)) });
}
const corpusDir = new URL('testdata/corpus/', root);
if (existsSync(corpusDir)) {
  for (const f of readdirSync(corpusDir).sort()) {
    // Corpus files are named, not copied: the tests read testdata/<file>.
    if (f.endsWith('.txt')) cases.push({ name: 'corpus', file: 'corpus/' + f, text: readFileSync(new URL(f, corpusDir), 'utf8') });
  }
}
const regressions = new URL('testdata/vectors/regressions.json', root);
if (existsSync(regressions)) {
  for (const r of JSON.parse(readFileSync(regressions, 'utf8'))) cases.push({ name: 'regression: ' + r.why, text: r.text });
}

const enc = Object.fromEntries(encodings.map((e) => [e, get_encoding(e)]));
const out = cases.map(({ name, text, file, repeat }) => {
  const c = { name, counts: {} };
  if (file) c.file = file;
  else if (repeat) c.repeat = repeat;
  else c.text = text;
  const keepIds = Buffer.byteLength(text) <= idsUpTo;
  if (keepIds) c.ids = {};
  for (const e of encodings) {
    const ids = enc[e].encode_ordinary(text);
    c.counts[e] = ids.length;
    if (keepIds) c.ids[e] = Array.from(ids);
  }
  return c;
});
for (const e of encodings) enc[e].free();

// One case per line keeps diffs readable.
const body = out.map((c) => '  ' + JSON.stringify(c)).join(',\n');
const header = {
  generator: 'js/scripts/vectors.mjs (make vectors); DO NOT EDIT',
  reference: 'npm tiktoken ' + JSON.parse(readFileSync(new URL('node_modules/tiktoken/package.json', new URL('../', import.meta.url)))).version + ' encode_ordinary',
  note: 'A case holds "text", or "file" (a path under testdata/), or "repeat" {unit, times}. Lone surrogates in "text" reach tiktoken as U+FFFD (JavaScript string to UTF-8).',
};
writeFileSync(new URL('testdata/vectors/tokens.json', root),
  '{\n "about": ' + JSON.stringify(header) + ',\n "cases": [\n' + body + '\n ]\n}\n');
console.log(`wrote testdata/vectors/tokens.json: ${out.length} texts × ${encodings.length} encodings`);
