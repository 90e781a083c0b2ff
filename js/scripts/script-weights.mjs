// Prints the script weights of an estimate from Anthropic's published
// legacy Claude tokenizer (npm @anthropic-ai/tokenizer, Apache-2.0): how
// many of its tokens each script class of tokenfit's corpus takes per
// o200k_base token, relative to ASCII text. Claude's current tokenizer is
// not public; its predecessor is a 65k-token BPE of the same maker, and
// its cost per script relative to o200k_base follows the same shape as the
// published measurements of the current one (Chinese ~1.4x, English ~1.0x:
// testdata/claude-rules.md §3). The weights go into core/models.json's
// claude estimators.
//
//   node js/scripts/script-weights.mjs DEPS_DIR FILE…

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [depsDir, ...files] = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: script-weights.mjs DEPS_DIR FILE…');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const deps = createRequire(join(depsDir, 'package.json'));
const { getTokenizer } = deps('@anthropic-ai/tokenizer');
const { get_encoding } = createRequire(join(root, 'js', 'package.json'))('tiktoken');
const claude = getTokenizer(); // the package's countTokens: NFKC, then encode with special tokens
const o200k = get_encoding('o200k_base');

const out = spawnSync('go', ['run', './internal/cmd/scriptruns', ...files], { cwd: root, maxBuffer: 1 << 28, encoding: 'utf8' });
if (out.status !== 0) throw new Error(`internal/cmd/scriptruns: ${out.stderr}`);
const sums = new Map();
for (const line of out.stdout.split('\n')) {
  if (!line) continue;
  const { class: c, run } = JSON.parse(line);
  const s = sums.get(c) ?? { o200k: 0, claude: 0 };
  s.o200k += o200k.encode_ordinary(run).length;
  s.claude += claude.encode(run.normalize('NFKC'), 'all').length;
  sums.set(c, s);
}
const ascii = sums.get('ascii');
const per = (s) => s.claude / s.o200k / (ascii.claude / ascii.o200k);
const weights = {};
for (const c of [...sums.keys()].sort()) {
  if (c !== 'ascii') weights[c] = Math.round(per(sums.get(c)) * 100) / 100;
}
console.log(JSON.stringify(weights));
for (const [c, s] of [...sums].sort()) console.error(`${c.padEnd(9)} o200k ${String(s.o200k).padStart(6)}  claude ${String(s.claude).padStart(6)}  weight ${per(s).toFixed(3)}`);
