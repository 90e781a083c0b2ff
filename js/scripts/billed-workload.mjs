// Finds, for each row of coder/ai-tokenizer's published accuracy (its
// accuracy.json at v1.0.6: the input tokens a provider billed for one random
// conversation, and what the peer's counter predicted for it), SEEDS seeds of
// internal/workload whose conversations the peer's own counter (npm
// ai-tokenizer 1.0.6, with the configuration the row was measured with)
// counts to exactly the published prediction, and writes the rows with their
// seeds to testdata/billed/ai-tokenizer.json. One such conversation differs
// from the billed one in its random choices, by ±0.1–0.3 % of another
// tokenizer's count; the mean over several is the better stand-in. Run by `make billed-workload`
// (which installs the peer, the AI SDK and Zod into build/billed); the
// output is committed, so tests and benches need none of them.
//
//   node js/scripts/billed-workload.mjs ACCURACY_JSON DEPS_DIR OUT_JSON
//
// The peer's loop: a system message and a user message, then one step at a
// time (a message, or a tool call with its result) while the count of the
// whole request (messages and tools) is below 90 % of the size aimed at.
// internal/cmd/workload writes each seed's steps; this script counts them
// with the peer's count() step by step (its total is a sum over messages
// plus the tools), and keeps the first SEEDS seeds that land on the prediction.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const [accuracyPath, depsDir, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: billed-workload.mjs ACCURACY_JSON DEPS_DIR OUT_JSON');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const need = createRequire(join(depsDir, 'package.json'));
const peer = await import(need.resolve('ai-tokenizer'));
const { count } = await import(need.resolve('ai-tokenizer/sdk'));
const encodings = await import(need.resolve('ai-tokenizer/encoding'));
const { z } = await import(need.resolve('zod'));
const { tool } = await import(need.resolve('ai'));

// The peer's tool, as its script defines it (the JSON Schema the AI SDK
// sends for it is internal/workload's ToolSchema).
const tools = {
  analyzeData: tool({
    description: 'Analyze dataset with comprehensive statistical insights and trend detection',
    inputSchema: z.object({
      query: z.string().describe('Analysis query'),
      filters: z.object({
        category: z.string().describe('Category filter'),
        dateRange: z.object({
          start: z.string().describe('Start date ISO format'),
          end: z.string().describe('End date ISO format'),
        }).describe('Date range for filtering'),
        tags: z.array(z.string()).describe('Tag filters'),
      }).describe('Data filters'),
      aggregation: z.enum(['sum', 'avg', 'min', 'max', 'count']).describe('Aggregation method'),
    }),
  }),
};

// The providers whose billed counts tokenfit is measured on, and the
// tokenfit model each of the gateway's names is.
const PROVIDERS = /^(openai|anthropic|google)\//;
const SIZES = { small: 500, medium: 5000, large: 50000 };
const MAX_SEEDS = 40000;
const SEEDS = 6;

const accuracy = JSON.parse(readFileSync(accuracyPath, 'utf8'));
const configHash = (m) => createHash('md5').update(JSON.stringify(m.tokens)).digest('hex').slice(0, 8);

// Rows to find, grouped by what decides a conversation's count: the peer's
// configuration and whether it has tool calls.
const groups = new Map();
for (const [name, row] of Object.entries(accuracy)) {
  if (!PROVIDERS.test(name)) continue;
  const model = peer.models[name];
  if (!model) throw new Error(`${name}: not in ai-tokenizer's models`);
  if (configHash(model) !== row.configHash) throw new Error(`${name}: measured with configuration ${row.configHash}, the package has ${configHash(model)}`);
  const toolCalls = name !== 'google/gemini-3-pro-preview';
  const key = `${row.configHash}/${toolCalls}`;
  if (!groups.has(key)) groups.set(key, { model, toolCalls, rows: [] });
  for (const [size, target] of Object.entries(SIZES)) {
    const r = row[size];
    if (!r || !Number.isInteger(r.actual) || !Number.isInteger(r.predicted)) continue;
    groups.get(key).rows.push({ peerModel: name, size, target, billed: r.actual, peerPredicted: r.predicted, peerConfig: row.configHash });
  }
}

// countStep is the peer's count of some messages without its base and tools.
function counter(model) {
  const tokenizer = new peer.Tokenizer(encodings[model.encoding]);
  const empty = count({ tokenizer, messages: [], tools, model }).total; // base + tools
  const cache = new Map();
  return {
    empty,
    step(msgs) {
      let n = 0;
      for (const m of msgs) {
        const key = JSON.stringify(m);
        let c = cache.get(key);
        if (c === undefined) {
          c = count({ tokenizer, messages: [m], tools: undefined, model }).total - model.tokens.baseOverhead;
          cache.set(key, c);
        }
        n += c;
      }
      return n;
    },
  };
}

// seeds streams internal/cmd/workload's conversations.
async function* seeds(from, to, messages, toolCalls) {
  const args = ['run', './internal/cmd/workload', '-from', String(from), '-to', String(to), '-messages', String(messages)];
  if (!toolCalls) args.push('-no-tool-calls');
  const child = spawn('go', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) yield JSON.parse(line);
  const code = await new Promise((res) => child.on('close', res));
  if (code !== 0) throw new Error(`internal/cmd/workload exited ${code}`);
}

const found = [];
for (const g of groups.values()) {
  const c = counter(g.model);
  const open = new Set(g.rows);
  const biggest = Math.max(...g.rows.map((r) => r.target));
  const messages = Math.ceil(biggest / 30) + 50; // every message holds more than 30 tokens
  for (let from = 1; open.size > 0 && from <= MAX_SEEDS; from += 500) {
    for await (const { seed, steps } of seeds(from, from + 500, messages, g.toolCalls)) {
      // The peer's total after each whole number of steps, and where it stops for each size.
      let total = c.empty, n = 0;
      const stops = {};
      for (const step of steps) {
        for (const [size, target] of Object.entries(SIZES)) {
          if (stops[size] === undefined && total >= target * 0.9 && n >= 2) stops[size] = { total, n };
        }
        total += c.step(step);
        n += step.length;
      }
      for (const r of [...open]) {
        const s = stops[r.size];
        if (s && s.total === r.peerPredicted) {
          (r.seeds ||= []).push({ seed, messages: s.n });
          if (r.seeds.length === SEEDS) {
            found.push({ ...r, toolCalls: g.toolCalls });
            open.delete(r);
          }
        }
      }
      if (open.size === 0) break;
    }
  }
  for (const r of open) console.error(`${r.seeds?.length ?? 0} of ${SEEDS} seeds up to ${MAX_SEEDS} for ${r.peerModel} ${r.size} (${r.peerPredicted})`);
}

found.sort((a, b) => a.peerModel.localeCompare(b.peerModel) || a.target - b.target);
const out = {
  source: 'https://github.com/coder/ai-tokenizer (accuracy.json and scripts/generate-accuracy.ts at v1.0.6, MIT)',
  note: 'Generated by js/scripts/billed-workload.mjs (make billed-workload); DO NOT EDIT. billed and peerPredicted are the published numbers; each of seeds (a seed and a number of messages) rebuilds an equivalent conversation with internal/workload.',
  rows: found.map(({ peerModel, size, billed, peerPredicted, peerConfig, seeds, toolCalls }) =>
    ({ peerModel, size, billed, peerPredicted, peerConfig, toolCalls, seeds })),
};
// One row per line, so that a change to a row is a change to its line.
const rows = out.rows.map((r) => '  ' + JSON.stringify(r)).join(',\n');
writeFileSync(outPath, JSON.stringify({ ...out, rows: [] }, null, 1).replace('"rows": []', `"rows": [\n${rows}\n ]`) + '\n');
console.log(`${found.length} rows`);
