// Writes core/registry/models.dev.json, tokenfit's pinned snapshot of the
// models.dev catalog (github.com/anomalyco/models.dev, MIT): every provider's
// models with their limits, prices, modalities and dates, base_model
// inherited as models.dev's own build does (packages/core/src/generate.ts:
// the models/ file's facts, the provider file's over them, base_model_omit
// removed after).
//
//   node js/scripts/models-dev.mjs CHECKOUT [--commit SHA --date YYYY-MM-DD]
//
// CHECKOUT is a models.dev checkout (its providers/ and models/); the
// commit and date default to its git HEAD's. Only this command reads
// models.dev: `make generate` reads the snapshot it wrote, so that a machine
// with the npm registry and the Go proxy alone regenerates the registry
// (RATIONALE.md, "Where does the model registry come from?"). Then run
// `make generate`.
import { parse } from 'smol-toml';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const dir = args[0];
if (!dir) {
  console.error('usage: node js/scripts/models-dev.mjs CHECKOUT [--commit SHA --date YYYY-MM-DD]');
  process.exit(2);
}
const flag = (name) => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : undefined;
};
const git = (...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8' }).trim();
const commit = flag('--commit') || git('rev-parse', 'HEAD');
const date = flag('--date') || git('log', '-1', '--format=%cs');

// walk lists the .toml files under d, following links (models.dev links a
// model file into several providers) and skipping links that lead nowhere.
const walk = (d) => readdirSync(d).sort().flatMap((f) => {
  const p = join(d, f);
  let s;
  try {
    s = statSync(p);
  } catch {
    return [];
  }
  return s.isDirectory() ? walk(p) : p.endsWith('.toml') ? [p] : [];
});
const read = (f) => parse(readFileSync(f, 'utf8'));

const base = {};
for (const f of walk(join(dir, 'models'))) base[relative(join(dir, 'models'), f).slice(0, -5)] = read(f);

const isTable = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
const merge = (a, b) => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isTable(v) && isTable(a[k]) ? merge(a[k], v) : v;
  return out;
};
const omit = (m, paths) => {
  for (const p of paths) {
    const parts = p.split('.');
    let t = m;
    for (const k of parts.slice(0, -1)) t = isTable(t) ? t[k] : undefined;
    if (isTable(t)) delete t[parts.at(-1)];
  }
  return m;
};
const day = (v) => (v === undefined ? '' : String(v instanceof Date ? v.toISOString().slice(0, 10) : v));
const num = (v) => (typeof v === 'number' ? v : 0);

const providers = {};
const models = [];
for (const p of readdirSync(join(dir, 'providers')).sort()) {
  let info;
  try {
    info = read(join(dir, 'providers', p, 'provider.toml'));
  } catch {
    continue;
  }
  providers[p] = { name: info.name, ...(info.doc ? { doc: info.doc } : {}) };
  const mdir = join(dir, 'providers', p, 'models');
  let files = [];
  try {
    files = walk(mdir);
  } catch {}
  for (const f of files) {
    let m = read(f);
    if (m.base_model !== undefined) {
      const { id: _, benchmarks: _b, license: _l, links: _k, weights: _w, ...inherited } = base[m.base_model] || {};
      if (!base[m.base_model]) throw new Error(`${f}: unknown base_model ${m.base_model}`);
      const { base_model_omit: o = [], ...own } = m;
      m = omit(merge(inherited, own), o);
    }
    const c = m.cost || {};
    const tier = (c.tiers || [])[0];
    // One array a model, in this order (core/gen_models.go reads it).
    models.push([
      p, relative(mdir, f).slice(0, -5), m.name || '', m.family || '', m.base_model || '',
      day(m.release_date), day(m.last_updated), m.status || '',
      num(m.limit?.context), num(m.limit?.input), num(m.limit?.output),
      (m.modalities?.input || []).join('+'), (m.modalities?.output || []).join('+'), m.reasoning ? 1 : 0,
      c.input ?? -1, c.output ?? -1, c.cache_read ?? c.cached_input ?? c.cache_input ?? -1, c.cache_write ?? c.cached_write ?? -1,
      tier ? [tier.tier.size, tier.input ?? -1, tier.output ?? -1, tier.cache_read ?? -1] : 0,
    ]);
  }
}
let newest = ['', ''];
for (const m of models) if (m[6] > newest[0]) newest = [m[6], `${m[0]}/${m[1]}`];

const head = {
  source: 'models.dev', repository: 'github.com/anomalyco/models.dev', license: 'MIT', commit, date,
  newest: { id: newest[1], date: newest[0] },
  columns: ['provider', 'id', 'name', 'family', 'baseModel', 'released', 'updated', 'status', 'context', 'input', 'output',
    'inputModalities', 'outputModalities', 'reasoning', 'priceInput', 'priceOutput', 'priceCacheRead', 'priceCacheWrite', 'tier'],
  prices: 'USD per million tokens; -1: not given',
  providers,
};
const out = new URL('../../core/registry/models.dev.json', import.meta.url);
writeFileSync(out, JSON.stringify(head, null, 1).slice(0, -2) + ',\n "models": [\n' + models.map((m) => '  ' + JSON.stringify(m)).join(',\n') + '\n ]\n}\n');
console.error(`models.dev ${commit.slice(0, 12)} (${date}): ${Object.keys(providers).length} providers, ${models.length} models, newest ${newest[1]} (${newest[0]})`);
