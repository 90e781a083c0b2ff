// Writes core/registry/openai.json: OpenAI's own model data as gpt-tokenizer
// (npm, MIT, pinned in js/package.json) generates it from OpenAI's model
// pages: every id it exports, grouped by the model it names (an alias or a
// dated snapshot shares its model's entry), with windows, output and input
// limits, modalities, endpoints and prices.
//
//   cd js && npm ci && node scripts/openai-models.mjs     (part of make generate)
//
// js/test/registry.test.mjs holds the committed file to this script's
// output, so a new gpt-tokenizer in package.json fails it until the file is
// regenerated (and core's registry with it: make generate).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as models from 'gpt-tokenizer/models';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(require.resolve('gpt-tokenizer/package.json'), 'utf8'));

// published is the npm registry's publication date of each version read
// (npm view gpt-tokenizer time): the package does not carry its own.
const published = { '4.0.0': '2026-08-16' };

export function openaiModels() {
  const groups = new Map(); // spec → its export names
  for (const [name, spec] of Object.entries(models)) {
    if (!groups.has(spec)) groups.set(spec, []);
    groups.get(spec).push(name);
  }
  const rows = [];
  for (const [s, names] of groups) {
    names.sort();
    const main = s.price_data && s.price_data.main;
    rows.push({
      names,
      name: s.name,
      ...(s.context_window ? { contextWindow: s.context_window } : {}),
      ...(s.max_output_tokens ? { maxOutput: s.max_output_tokens } : {}),
      ...(s.max_input_tokens ? { maxInput: s.max_input_tokens } : {}),
      ...(s.reasoning_tokens ? { reasoning: true } : {}),
      ...(s.deprecated ? { deprecated: true } : {}),
      input: (s.modalities && s.modalities.input) || [],
      output: (s.modalities && s.modalities.output) || [],
      endpoints: s.supported_endpoints || [],
      // price_data.main in USD per million tokens; gpt-tokenizer names o1's
      // cached input price cached_output (OpenAI's page: cached input).
      ...(main ? { price: { input: main.input, output: main.output, ...(main.cached_input ?? main.cached_output) !== undefined ? { cachedInput: main.cached_input ?? main.cached_output } : {} } } : {}),
      ...(s.knowledge_cutoff ? { knowledgeCutoff: s.knowledge_cutoff.toISOString().slice(0, 10) } : {}),
    });
  }
  rows.sort((a, b) => (a.names[0] < b.names[0] ? -1 : 1));
  let newest = { id: '', date: '' };
  for (const r of rows) {
    for (const n of r.names) {
      const d = /(\d{4}-\d{2}-\d{2})$/.exec(n);
      if (d && d[1] > newest.date) newest = { id: n, date: d[1] };
    }
  }
  return {
    source: 'gpt-tokenizer', version: pkg.version, date: published[pkg.version] || '', license: pkg.license,
    newest, prices: 'USD per million tokens (price_data.main)', models: rows,
  };
}

export const text = (data) => JSON.stringify({ ...data, models: undefined }, null, 1).slice(0, -2) +
  ',\n "models": [\n' + data.models.map((m) => '  ' + JSON.stringify(m)).join(',\n') + '\n ]\n}\n';

if (import.meta.url === `file://${process.argv[1]}`) {
  const data = openaiModels();
  writeFileSync(new URL('../../core/registry/openai.json', import.meta.url), text(data));
  console.error(`gpt-tokenizer ${data.version} (${data.date}): ${data.models.length} models, ` +
    `${data.models.reduce((n, m) => n + m.names.length, 0)} ids, newest ${data.newest.id}`);
}
