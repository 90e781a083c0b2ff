// The web demo in headless Chromium, as a person uses it: type, paste 1 MB,
// change the model, the window and the token budget; every number the page
// shows is checked against the core's own answer, computed by the Go CLI on
// the same input (never re-implemented here). Saves screenshots to
// test-results/ and checks that they are not blank; prints the timings.
//
//   make test-demo          (builds the page first)
//   node --test test/       (from web-demo/, once dist/ is built)
//
// Chromium: $CHROMIUM, else /usr/bin/chromium (Debian's `chromium`).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import * as samples from '../src/samples.js';

const here = fileURLToPath(new URL('..', import.meta.url));
const repo = join(here, '..');
const results = join(here, 'test-results');
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const fmt = (n) => n.toLocaleString('en-US');

let tmp, cli, server, base, context, page;
const requests = [];
const errors = []; // the page's console errors and uncaught exceptions

// ---- the core's answers, from the CLI ----------------------------------------

function tf(args, input) {
  return execFileSync(cli, args, { input, encoding: 'utf8', maxBuffer: 256 << 20 }).trim();
}
const count = (text, model) => Number(tf(['count', '--model', model], text));
const answer = (cmd, req) => JSON.parse(tf([cmd], JSON.stringify(req)));
const call = (op, req) => JSON.parse(tf(['call', op], JSON.stringify(req)));

// ---- set-up ---------------------------------------------------------------

before(async () => {
  assert.ok(existsSync(join(here, 'dist/index.html')), 'dist/ is not built: run make test-demo (or node build.mjs)');
  assert.ok(existsSync(executablePath), `no Chromium at ${executablePath}: apt-get install chromium, or set CHROMIUM`);
  tmp = await mkdtemp(join(tmpdir(), 'tokenfit-demo-'));
  await mkdir(results, { recursive: true });
  cli = join(tmp, 'tokenfit');
  execFileSync('go', ['build', '-o', cli, './host/cmd/tokenfit'], { cwd: repo, stdio: 'inherit' });

  server = spawn(process.execPath, ['server.mjs'], { cwd: here, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:\d+\//);
      if (m) resolve(m[0]);
    });
    server.on('exit', (code) => reject(new Error(`server.mjs exited with ${code}`)));
  });

  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base.slice(0, -1) });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => {
    console.error('page error:', e.message);
    errors.push(e.message);
  });
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
});

after(async () => {
  await context?.close();
  server?.kill();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// ---- helpers --------------------------------------------------------------

// expectCount waits until the live count shows n, and checks what is shown.
async function expectCount(n, what) {
  try {
    await page.waitForFunction(
      (n) => {
        const c = document.querySelector('#count');
        return c.dataset.state === 'ready' && Number(c.dataset.tokens) === n;
      },
      n,
      { timeout: 30_000 },
    );
  } catch {
    const shown = await page.$eval('#count', (c) => `${c.dataset.tokens} (${c.dataset.state})`);
    assert.fail(`${what}: the page shows ${shown} tokens, the core says ${n}`);
  }
  assert.equal(await page.textContent('#count [data-tokens]'), fmt(n));
}

const composerValue = () => page.$eval('#composer', (c) => c.value);

// canon: JSON with sorted keys, to compare requests.
function canon(v) {
  return JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
}

// waitFor waits until the page's latest request of kind ('budget', 'plan')
// is req, and returns the answer the page drew from.
async function waitFor(kind, req) {
  const want = canon(req);
  try {
    // canon again, inside the page (which allows no eval under its CSP).
    await page.waitForFunction(
      ([kind, want]) => {
        const last = window.tokenfitDemo[kind];
        const sorted = (k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x);
        return last && JSON.stringify(last.request, sorted) === want;
      },
      [kind, want],
      { timeout: 30_000 },
    );
  } catch {
    const got = await page.evaluate((kind) => window.tokenfitDemo[kind]?.request, kind);
    assert.deepEqual(got, req, `the page's ${kind} request`);
  }
  return page.evaluate((kind) => window.tokenfitDemo[kind].answer, kind);
}

const perf = () => page.evaluate(() => window.tokenfitDemo.perf);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- tests ----------------------------------------------------------------

test('first visit: the page is ready from the local server alone, under Trusted Types', async () => {
  const t0 = Date.now();
  await page.goto(base);
  await page.waitForFunction(() => window.tokenfitDemo?.startup.painted, null, { timeout: 60_000 });
  const wallMs = Date.now() - t0;
  // The first screen is complete with its token view (the jobs worker's).
  await page.waitForFunction(() => window.tokenfitDemo.startup.tokens, null, { timeout: 60_000 });
  // The page's own clock: ms since the navigation started, phase by phase.
  const { startup: at, nav } = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return { startup: window.tokenfitDemo.startup, nav: { html: n.responseEnd, parsed: n.domInteractive } };
  });
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const phases = [
    ['the HTML', 0, nav.html],
    ['boot.js starts the module and table', nav.html, at.boot],
    ['the document parsed', nav.html, nav.parsed],
    ['main.js runs', nav.parsed, at.script],
    ['the lean module compiled (since boot)', at.boot, at.compiled],
    ['the table downloaded (since boot)', at.boot, at.fetched],
    ['instantiate and _initialize', Math.max(at.script, at.compiled, at.fetched), at.instance],
    ['load o200k_base', at.instance, at.table],
    ['the first count', at.table, at.count],
    ['its frame', at.count, at.painted],
    ['the token view (since the count)', at.count, at.tokens],
  ];
  console.log(`# first visit: the count on screen ${Math.round(at.painted)} ms after the navigation started (${wallMs} ms as the test waited; an empty cache; load average ${load})`);
  for (const [what, from, to] of phases) console.log(`#   ${what.padEnd(40)} ${String(Math.round(to - from)).padStart(5)} ms (at ${Math.round(to)})`);
  await writeFile(join(results, 'first-visit.json'), JSON.stringify({ readyMs: Math.round(at.painted), wallMs, load, startup: at, nav }, null, 1) + '\n');
  for (const u of requests) assert.ok(u.startsWith(base) || u.startsWith('data:') || u.startsWith('blob:'), `a request left the page's server: ${u}`);
  // server.mjs requires Trusted Types; the page ran under them.
  const csp = (await fetch(base)).headers.get('content-security-policy');
  assert.match(csp, /require-trusted-types-for 'script'/);
  assert.deepEqual(errors, [], 'console errors on load');
  await page.screenshot({ path: join(results, '01-first-screen.png') });

  // The model's window, as the registry has it.
  const m = JSON.parse(tf(['models', '--json', 'gpt-4o'])).model;
  assert.equal(await page.textContent('[data-k="contextWindow"]'), fmt(m.contextWindow));
  assert.equal(await page.textContent('[data-k="effectiveInputBudget"]'), fmt(m.effectiveInputBudget));
});

test('first screen: the sample, its exact count, its share of the window and its input cost', async () => {
  assert.equal(await composerValue(), samples.firstText);
  const n = count(samples.firstText, 'gpt-4o');
  await expectCount(n, 'the sample on load');
  await checkAnswers('gpt-4o', n, n);
});

// checkAnswers checks the share of the window and the cost shown for tokens
// (upper: what the share counts) against the registry and its prices.
async function checkAnswers(model, tokens, upper) {
  const m = JSON.parse(tf(['models', '--json', model])).model;
  await page.waitForFunction((u) => Number(document.querySelector('#share').dataset.tokens) === u, upper, { timeout: 30_000 });
  const share = await page.textContent('#share');
  assert.ok(share.includes(`${fmt(m.contextWindow)}-token window`), share);
  const x = (upper / m.contextWindow) * 100;
  assert.ok(share.includes(x >= 0.1 ? `${x.toFixed(1)} %` : `${x.toPrecision(2)} %`), `${share}: ${upper} of ${m.contextWindow}`);
  const cost = await page.$eval('#cost', (c) => [c.textContent, Number(c.dataset.usd)]);
  if (m.price) {
    assert.equal(cost[1], (tokens * m.price.input) / 1e6, cost[0]);
    assert.ok(cost[0].includes(`price list: ${m.price.source}, ${m.price.date}`), cost[0]);
  } else {
    assert.match(cost[0], /has no price/);
  }
}

test('typing before tokenfit is ready: no error, and the count catches up', async () => {
  const p = await context.newPage();
  const errs = [];
  p.on('pageerror', (e) => errs.push(e.message));
  p.on('console', (m) => m.type() === 'error' && errs.push(m.text()));
  try {
    // Hold the module back, so that the typing certainly comes first.
    let release;
    const held = new Promise((r) => (release = r));
    await p.route('**/tokenfit-lite.wasm', async (route) => {
      await held;
      await route.continue();
    });
    await p.goto(base, { waitUntil: 'domcontentloaded' }); // the load event waits for the preloaded module
    await p.click('#composer');
    await p.keyboard.press('Control+End');
    await p.keyboard.type(' Typed early.');
    assert.equal(await p.evaluate(() => window.tokenfitDemo.ready), false);
    await p.screenshot({ path: join(results, '03-before-ready.png') });
    release();
    const text = samples.firstText + ' Typed early.';
    const n = count(text, 'gpt-4o');
    await p.waitForFunction((n) => {
      const c = document.querySelector('#count');
      return c.dataset.state === 'ready' && Number(c.dataset.tokens) === n;
    }, n, { timeout: 60_000 });
    await p.keyboard.type(' And after.');
    const m = count(text + ' And after.', 'gpt-4o');
    await p.waitForFunction((n) => Number(document.querySelector('#count').dataset.tokens) === n, m, { timeout: 30_000 });
    assert.deepEqual(errs, []);
    assert.ok(!(await p.$eval('#status', (s) => s.classList.contains('error'))));
  } finally {
    await p.close();
  }
});

test('a policy that allows no Trusted Types policy for the page: a clear message, not a hang', async () => {
  const p = await context.newPage();
  try {
    await p.route(base, async (route) => {
      const r = await route.fetch();
      const headers = { ...r.headers() };
      delete headers['content-encoding'];
      delete headers['content-length'];
      headers['content-security-policy'] = headers['content-security-policy'].replace('trusted-types tokenfit-demo', "trusted-types 'none'");
      await route.fulfill({ response: r, headers, body: await r.body() });
    });
    await p.goto(base);
    await p.waitForSelector('#status.error', { timeout: 30_000 });
    assert.match(await p.textContent('#status'), /requires Trusted Types.*add "trusted-types tokenfit-demo"/);
    await p.screenshot({ path: join(results, '02-trusted-types-refused.png') });
  } finally {
    await p.close();
  }
});

test('typing shows the exact count on every keystroke', async () => {
  await page.click('#clear-composer');
  await page.click('#composer');
  await page.keyboard.type('Hello world');
  await expectCount(count('Hello world', 'gpt-4o'), 'after typing');
  await page.keyboard.type(' — 東京の書店 😀 <|endoftext|>\n\tindented  ');
  const text = await composerValue();
  assert.equal(text, 'Hello world — 東京の書店 😀 <|endoftext|>\n\tindented  ');
  await expectCount(count(text, 'gpt-4o'), 'after typing more');
  // Deleting across a surrogate pair and editing in the middle.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  for (let i = 0; i < 16; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('!');
  const edited = await composerValue();
  assert.equal(edited, 'Hello world — 東京の書店!\n\tindented  ');
  await expectCount(count(edited, 'gpt-4o'), 'after editing');
});

test('pasting 1 MB keeps the count exact, and so does typing after it', async (t) => {
  const doc = samples.document();
  assert.ok(Buffer.byteLength(doc) >= 1 << 20);
  await page.evaluate((d) => navigator.clipboard.writeText(d), doc);
  await page.click('#composer');
  await page.keyboard.press('Control+End');
  const before = (await perf()).length;
  await page.keyboard.press('Control+V');
  const text = await composerValue();
  assert.equal(text, 'Hello world — 東京の書店!\n\tindented  ' + doc, 'the paste did not land whole');
  await expectCount(count(text, 'gpt-4o'), 'after pasting 1 MB');
  const paste = (await perf()).slice(before).find((p) => p.kind === 'paste');
  assert.ok(paste, 'the page recorded no paste');

  // Keystrokes at the end and at the very start of the 1 MB text.
  const n0 = (await perf()).length;
  for (let i = 0; i < 10; i++) {
    await page.keyboard.type('z');
    await page.waitForTimeout(120);
  }
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 5; i++) {
    await page.keyboard.type('a');
    await page.waitForTimeout(120);
  }
  const big = await composerValue();
  assert.equal(big, 'aaaaa' + text + 'zzzzzzzzzz');
  await expectCount(count(big, 'gpt-4o'), 'after typing in a 1 MB text');
  const keys = (await perf()).slice(n0).filter((p) => p.kind === 'type');
  assert.equal(keys.length, 15);

  const report = {
    pasteBytes: Buffer.byteLength(doc),
    pasteToCountPaintedMs: Math.round(paste.fromKeyMs),
    pasteInputEventToCountMs: Math.round(paste.countMs),
    pasteWorkerMs: Math.round(paste.workerMs),
    keystroke1MB: {
      keyToCountPaintedMsMedian: Math.round(median(keys.map((k) => k.fromKeyMs))),
      inputEventToCountMsMedian: Math.round(median(keys.map((k) => k.countMs))),
      workerMsMedian: +median(keys.map((k) => k.workerMs)).toFixed(2),
    },
  };
  const small = (await perf()).filter((p) => p.kind === 'type' && p.chars < 100);
  report.keystrokeShort = {
    keyToCountPaintedMsMedian: Math.round(median(small.map((k) => k.fromKeyMs))),
    inputEventToCountMsMedian: +median(small.map((k) => k.countMs)).toFixed(1),
    workerMsMedian: +median(small.map((k) => k.workerMs)).toFixed(2),
  };
  await writeFile(join(results, 'perf.json'), JSON.stringify(report, null, 2) + '\n');
  t.diagnostic(`timings: ${JSON.stringify(report)}`);
  console.log(`# timings ${JSON.stringify(report)}`);
});

// selectAll presses Ctrl+A in a text area and returns the milliseconds to
// the next frame after it: Chromium syncs the selection before painting.
async function selectAll(p, sel) {
  await p.focus(sel);
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const t0 = Date.now();
  await p.keyboard.press('Control+A');
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const took = Date.now() - t0;
  const [start, end, length] = await p.$eval(sel, (t) => [t.selectionStart, t.selectionEnd, t.value.length]);
  assert.deepEqual([start, end], [0, length], 'Ctrl+A selected the whole text');
  return took;
}

test('Ctrl+A in the 1 MB document answers in under 2 s', async () => {
  // A bare text area with the same text, measured in the same run.
  const bare = await context.newPage();
  let plain;
  try {
    await bare.setContent('<textarea id="t" rows="9" style="width:600px;font-family:monospace"></textarea>');
    await bare.$eval('#t', (t, v) => (t.value = v), await composerValue());
    plain = await selectAll(bare, '#t');
  } finally {
    await bare.close();
  }
  const took = await selectAll(page, '#composer');
  console.log(`# Ctrl+A in 1 MB: the page ${took} ms, a bare text area ${plain} ms`);
  // Under 2 s; on a machine so loaded that the bare text area itself needs
  // more than 1 s, within twice its time.
  assert.ok(took < Math.max(2000, 2 * plain), `Ctrl+A took ${took} ms (a bare text area: ${plain} ms)`);
  await page.keyboard.press('Control+End');
});

const shownIds = () => page.$$eval('#token-view .t', (ts) => ts.flatMap((t) => t.dataset.ids.split(' ').map(Number)));

test('the token view shows the tokens and their ids', async () => {
  const text = await composerValue();
  const ids = JSON.parse(tf(['encode', '--model', 'gpt-4o'], text)).ids;
  await page.waitForFunction((n) => document.querySelector('#token-caption').textContent.startsWith(n), fmt(ids.length), { timeout: 60_000 });
  const shown = await shownIds();
  assert.ok(shown.length >= 1000 && shown.length < 1016, `a 1 MB text renders its first 1,000 tokens (to a group's end), the rest on demand: ${shown.length}`);
  assert.deepEqual(shown, ids.slice(0, shown.length));
  const texts = await page.$$eval('#token-view .t', (ts) => ts.slice(0, 20).map((t) => t.textContent).join(''));
  assert.ok(text.startsWith(texts), 'the first tokens spell the text');
  // More on demand, by keyboard.
  await page.focus('#more-tokens');
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#token-view .t').length > n, shown.length);
  const more = await shownIds();
  assert.deepEqual(more, ids.slice(0, more.length));
  assert.ok(more.length >= 2000);
});

test('tokens: an emoji shown whole, ids separated, whitespace shown, each token reachable by keyboard', async () => {
  const text = 'Family: 👨‍👩‍👧 and a parrot 🦜\tok\nnext line';
  await page.fill('#composer', text);
  const ids = JSON.parse(tf(['encode', '--model', 'gpt-4o'], text)).ids;
  await page.waitForFunction((n) => document.querySelector('#token-caption').textContent.startsWith(`${n} tokens`), ids.length, { timeout: 30_000 });
  assert.deepEqual(await shownIds(), ids);
  const groups = await page.$$eval('#token-view .t', (ts) => ts.map((t) => ({ text: t.textContent, ids: t.dataset.ids.split(' ').length })));
  assert.ok(groups.every((g) => !g.text.includes('\uFFFD')), `a token shown as �: ${JSON.stringify(groups)}`);
  for (const emoji of ['👨‍👩‍👧', '🦜']) {
    const g = groups.find((x) => x.text.includes(emoji));
    assert.ok(g, `${emoji} is not shown whole: ${JSON.stringify(groups)}`);
    assert.equal(groups.filter((x) => x.text.includes(emoji.slice(0, 2))).length, 1, `${emoji} shown once`);
  }
  assert.ok(groups.some((g) => g.ids > 1), 'a multi-token emoji spans its tokens');
  assert.equal(groups.map((g) => g.text).join(''), text);

  // Ids: separated, in order, in the id list.
  await page.check('#show-ids');
  const list = await page.$eval('#id-list', (l) => l.innerText);
  assert.deepEqual(list.trim().split(/\s+/).map(Number), ids, `the id list reads ${list}`);
  // Whitespace.
  await page.check('#show-ws');
  const ws = await page.$eval('#token-view', (v) => v.textContent);
  assert.ok(ws.includes('→') && ws.includes('↵') && ws.includes('·'), ws);
  // Keyboard: the view is one tab stop; arrows pick a token, which the line
  // below names and the id list highlights.
  await page.focus('#token-view');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  const info = await page.textContent('#token-info');
  assert.ok(info.startsWith(`Token 2 of ${ids.length}: id ${ids[1]}`), info);
  assert.equal(await page.$eval('#id-list li.active', (l) => l.textContent), String(ids[1]));
  // A tap on the emoji names all its ids.
  await page.click('#token-view .t.multi');
  assert.match(await page.textContent('#token-info'), /^Tokens \d+–\d+ of \d+: ids \d+(, \d+)+/);
  await page.screenshot({ path: join(results, '04-token-view.png') });
  await page.uncheck('#show-ws');
  await page.uncheck('#show-ids');
});

test('changing the model recounts with its encoding and shows its window', async () => {
  const text = await composerValue();
  await page.selectOption('#model', 'gpt-4');
  await expectCount(count(text, 'gpt-4'), 'gpt-4 (cl100k_base)');
  assert.equal(await page.$eval('#count', (c) => c.dataset.encoding), 'cl100k_base');
  const m = JSON.parse(tf(['models', '--json', 'gpt-4'])).model;
  assert.equal(await page.textContent('[data-k="contextWindow"]'), fmt(m.contextWindow));
  assert.equal(await page.textContent('[data-k="responseReserve"]'), fmt(m.responseReserve));

  // A model without a public tokenizer: its estimate beside the exact base count.
  await page.click('#clear-composer');
  await page.click('#composer');
  await page.keyboard.type('Estimate this sentence for a model whose tokenizer is not public.');
  await page.selectOption('#model', 'claude-sonnet-4-5');
  const short = await composerValue();
  await expectCount(count(short, 'gpt-4o'), 'claude counts exactly with its base encoding, o200k_base');
  const est = call('countTokens', { model: 'claude-sonnet-4-5', text: short });
  await page.waitForFunction(([n, u]) => {
    const e = document.querySelector('#estimate');
    return !e.hidden && Number(e.dataset.tokens) === n && Number(e.dataset.upper) === u;
  }, [est.tokens, est.upperBound]);
  assert.ok((await page.textContent('#estimate')).startsWith(`≈ ${fmt(est.tokens)} tokens up to ${fmt(est.upperBound)}`));
  assert.ok(await page.$eval('#count', (c) => c.classList.contains('secondary')), 'the exact base count is not the headline');
  await checkAnswers('claude-sonnet-4-5', est.tokens, est.upperBound);
  // The token view shows the base encoding's tokens, and says they are not the model's.
  await page.waitForFunction(() => document.querySelector('#token-caption').textContent.includes("the base of claude-sonnet-4-5's estimate"), null, { timeout: 30_000 });
  assert.match(await page.textContent('#count-detail'), /o200k_base, exact, the base of claude-sonnet-4-5's estimate/);
  await page.screenshot({ path: join(results, '05-estimated-model.png') });
  await page.selectOption('#model', 'gpt-4o');
  await expectCount(count(short, 'gpt-4o'), 'back on gpt-4o');
});

// expectedBudget builds the request the page's controls describe, from what
// this test put into them, asks the core, and checks what the page shows.
async function checkBudget(req) {
  const want = answer('budget', req);
  const got = await waitFor('budget', req);
  assert.deepEqual(got, want, 'the page drew from the core\'s answer');
  const cell = (k) => page.textContent(`#budget-table td[data-k="${k}"]`);
  for (const k of ['contextWindow', 'responseReserve', 'safetyBuffer', 'inputBudget', 'usedTokens']) {
    assert.equal(await cell(k), fmt(want[k]), k);
  }
  assert.equal(await cell('historyBudget'), want.historyBudget < 0 ? `none (${fmt(want.historyBudget)})` : fmt(want.historyBudget));
  // The explanation: core's overflow, minimum-history and remedy fields, each said.
  const said = await page.$$eval('#budget-explain li', (ls) => ls.map((l) => [l.dataset.k, l.textContent]));
  const kinds = said.map(([k]) => k);
  assert.equal(kinds.includes('fixedOverflow'), !!want.fixedOverflowTokens, JSON.stringify(said));
  assert.equal(kinds.includes('minHistory'), !!want.minHistoryExcess, JSON.stringify(said));
  assert.equal(kinds.filter((k) => k === 'remedy').length, (want.remedies ?? []).length, JSON.stringify(said));
  if (want.fixedOverflowTokens) assert.ok(said.find(([k]) => k === 'fixedOverflow')[1].includes(fmt(want.fixedOverflowTokens)));
  if (want.minHistoryExcess) assert.ok(said.find(([k]) => k === 'minHistory')[1].includes(fmt(want.minHistoryExcess)));
  (want.remedies ?? []).forEach((r, i) => assert.ok(said.filter(([k]) => k === 'remedy')[i][1].includes(fmt(r.tokens)), `remedy ${i}`));
  for (const k of ['system', 'procedure', 'knowledge', 'episodes', 'current']) {
    assert.ok((await cell(k)).startsWith(fmt(want.sections[k].tokens)), `section ${k}`);
  }
  assert.ok((await cell('memoryTokens')).startsWith(fmt(want.memoryTokens)));
  assert.equal(await cell('historyTokens'), `${fmt(want.history.tokens)} → ${fmt(want.history.keptTokens)}`);
  const alert = await page.$eval('#alert', (a) => ({ level: a.dataset.alert, text: a.textContent }));
  assert.equal(alert.level, want.alert);
  assert.ok(alert.text.includes(`${(want.utilization * 100).toFixed(1)} %`), alert.text);
  // Each history message's fate, beside it.
  const fates = await page.$$eval('#history output.fate', (os) => os.map((o) => o.dataset.fate));
  const expected = req.history.map((_, i) =>
    want.history.dropped.includes(i) ? 'dropped' : want.history.summarize.includes(i) ? 'summarize' : 'kept');
  assert.deepEqual(fates, expected);
  const marks = await page.$$eval('#bar .mark', (ms) => ms.map((m) => m.dataset.label));
  assert.ok(marks.includes('70 %') && marks.includes('90 %'), 'the bar marks 70 % and 90 %');
  return want;
}

test('the budget bar shows calculateBudget, as the window and the history change', async () => {
  await page.click('#clear-composer');
  await page.click('#composer');
  const current = 'Where is my order 4711? It has not arrived.';
  await page.keyboard.type(current);
  const sections = { ...samples.sections, current };
  let history = samples.conversation(6);
  const a = await checkBudget({ model: 'gpt-4o', sections, history });
  assert.equal(a.alert, 'none');

  // A long conversation in a small window: history dropped, summaries proposed, critical.
  await page.click('#sample-history');
  history = samples.conversation(60);
  await page.fill('#window', '4000');
  const b = await checkBudget({ model: 'gpt-4o', contextWindow: 4000, sections, history });
  assert.ok(b.history.dropped.length > 0, 'a 4,000-token window drops history');
  assert.equal(b.alert, 'critical');

  // A warning: a window in which the request uses 80 % of the input budget
  // (its size taken from the core's count of the sections).
  await page.click('#clear-history');
  history = [];
  const used = answer('budget', { model: 'gpt-4o', sections }).usedTokens;
  const win = 200 + Math.ceil(used / 0.8);
  await page.fill('#window', String(win));
  await page.fill('#reserve', '200');
  const c = await checkBudget({ model: 'gpt-4o', contextWindow: win, outputReserve: 200, sections, history });
  assert.equal(c.alert, 'warning', `utilization ${c.utilization}`);

  // The smallest section is still visible in the bar.
  const widths = await page.$$eval('#bar .seg', (ss) => ss.map((x) => x.getBoundingClientRect().width));
  assert.ok(widths.every((w) => w >= 4), `a section is an invisible sliver: ${widths}`);

  // Edit a section by keyboard.
  await page.focus('#sec-system');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Be brief.');
  await checkBudget({ model: 'gpt-4o', contextWindow: win, outputReserve: 200, sections: { ...sections, system: sections.system + ' Be brief.' }, history });
  await page.fill('#window', '');
  await page.fill('#reserve', '');
});

test('the budget explains itself: overflow, remedies, the minimum history; errors at the field, nothing stale', async () => {
  const sections = { ...samples.sections, system: samples.sections.system + ' Be brief.' }; // as the test before left it
  // A window so small that the minimum history keeps more than the budget.
  await page.click('#clear-composer');
  await page.click('#sample-history');
  const history = samples.conversation(60);
  await page.fill('#window', '3000');
  const a = await checkBudget({ model: 'gpt-4o', contextWindow: 3000, sections, history });
  assert.ok(a.minHistoryExcess > 0, 'the minimum history keeps more than the budget');
  await page.screenshot({ path: join(results, '06-budget-min-history.png'), fullPage: true });

  // A current message larger than the window: the fixed parts overflow.
  const big = samples.document(40_000);
  await page.$eval('#composer', (c, v) => {
    c.value = v;
    c.dispatchEvent(new InputEvent('input', { inputType: 'insertText' }));
  }, big);
  const b = await checkBudget({ model: 'gpt-4o', contextWindow: 3000, sections: { ...sections, current: big }, history });
  assert.ok(b.fixedOverflowTokens > 0 && b.history.summarize.length === 0 && b.remedies.length > 0, JSON.stringify(b.remedies));
  await page.locator('#budget-explain').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, '07-budget-overflow.png') });

  // An error: nothing stale, the field marked.
  await page.click('#clear-composer');
  await page.fill('#window', '-5');
  await page.waitForFunction(() => window.tokenfitDemo.budget?.error);
  assert.equal(await page.getAttribute('#window', 'aria-invalid'), 'true');
  assert.ok(!(await page.isHidden('#window-error')), 'the error is said at the field');
  assert.equal(await page.$eval('#window-error', (e) => e.textContent.length > 0), true);
  assert.equal(await page.$$eval('#bar .seg', (s) => s.length), 0, 'the old bar stayed');
  assert.equal(await page.$$eval('#budget-table tbody tr', (s) => s.length), 0, 'the old table stayed');
  assert.equal(await page.$eval('#alert', (a) => a.dataset.alert), 'error');
  await page.screenshot({ path: join(results, '08-budget-error.png') });
  // Back to a valid window: the mark goes, the budget comes back.
  await page.fill('#window', '');
  await page.click('#clear-history');
  await checkBudget({ model: 'gpt-4o', sections, history: [] });
  assert.equal(await page.getAttribute('#window', 'aria-invalid'), null);
});

test('the plan shows planInjection: tiers and why, demotions, the compiled text', async () => {
  await page.click('#sample-behaviors');
  const items = structuredClone(samples.behaviors);
  for (const budget of [120, 60, 2000]) {
    await page.fill('#plan-budget', String(budget));
    await checkPlan({ model: 'gpt-4o', budget, items });
  }
  // An activation lowered by keyboard: 0.33 → 0.29 drops below the summary tier.
  await page.focus('#act-measure');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  items.find((x) => x.id === 'measure').activation = 0.29;
  const p = await checkPlan({ model: 'gpt-4o', budget: 2000, items });
  assert.equal(p.items.find((x) => x.id === 'measure').tier, 'nameOnly');
  await page.fill('#plan-budget', '120');
  await checkPlan({ model: 'gpt-4o', budget: 120, items });

  // Add a behavior, edit one, remove one: by keyboard and pointer.
  await page.click('#add-behavior');
  await page.fill('#b-name', 'cite-sources');
  await page.selectOption('#b-kind', 'directive');
  await page.fill('#b-tags', 'docs, #quality');
  await page.fill('#b-activation', '0.8');
  await page.fill('#b-content', 'Cite the file and line of every claim about the code.');
  await page.fill('#b-summary', 'Cite file and line.');
  await page.keyboard.press('Enter');
  items.push({ id: 'cite-sources', name: 'cite-sources', kind: 'directive', tags: ['docs', 'quality'], activation: 0.8,
    content: 'Cite the file and line of every claim about the code.', summary: 'Cite file and line.' });
  await checkPlan({ model: 'gpt-4o', budget: 120, items });
  await page.click('#plan-items tr[data-id="measure"] button.edit');
  await page.fill('#b-activation', '0.75');
  await page.click('#behavior-form button[type="submit"]');
  items.find((x) => x.id === 'measure').activation = 0.75;
  await checkPlan({ model: 'gpt-4o', budget: 120, items });
  await page.click('#plan-items tr[data-id="no-secrets"] button.remove');
  items.splice(items.findIndex((x) => x.id === 'no-secrets'), 1);
  await checkPlan({ model: 'gpt-4o', budget: 120, items });
  // The tiers read as core names them, in the table and in the reasons.
  const tiers = await page.$$eval('#plan-items .tier', (ts) => ts.map((t) => t.textContent));
  assert.ok(tiers.every((t) => ['full', 'summary', 'nameOnly', 'omitted'].includes(t)), tiers.join());
  // An invalid budget: marked at the field, no stale plan.
  await page.fill('#plan-budget', '-5');
  await page.waitForFunction(() => window.tokenfitDemo.plan?.error);
  assert.equal(await page.getAttribute('#plan-budget', 'aria-invalid'), 'true');
  assert.equal(await page.textContent('#plan-text'), '');
  await page.fill('#plan-budget', '120');
  await checkPlan({ model: 'gpt-4o', budget: 120, items });
  await page.locator('#h-plan').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, '09-plan.png'), fullPage: false });
  await page.click('#sample-behaviors');
});

test('the plan editor by keyboard alone: add, edit, Escape to cancel, remove; the focus follows', async () => {
  await page.focus('#sample-behaviors');
  await page.keyboard.press('Enter');
  await page.fill('#plan-budget', '120');
  const items = structuredClone(samples.behaviors);
  await checkPlan({ model: 'gpt-4o', budget: 120, items });
  const focused = () => page.evaluate(() => document.activeElement.id || document.activeElement.className);
  const row = (id) => `#plan-items tr[data-id="${id}"]`;

  // Add: Enter on the button opens the editor with the focus on the name;
  // Tab walks the fields in order; Enter in a field saves.
  await page.focus('#add-behavior');
  await page.keyboard.press('Enter');
  assert.equal(await focused(), 'b-name');
  await page.keyboard.type('keyboard-only');
  for (const [field, text] of [['b-kind', null], ['b-activation', '0.9'], ['b-tags', 'a11y, #ui'],
    ['b-content', 'Every control answers to the keyboard.'], ['b-summary', 'Keyboard first.']]) {
    await page.keyboard.press('Tab');
    assert.equal(await focused(), field, 'the editor\'s tab order');
    if (text === null) continue;
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
  }
  await page.keyboard.press('Enter');
  await page.waitForSelector('#behavior-form', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.closest('tr')?.dataset.id), 'keyboard-only', 'the focus is on the new row');
  assert.equal(await focused(), 'edit');
  items.push({ id: 'keyboard-only', name: 'keyboard-only', kind: 'directive', tags: ['a11y', 'ui'], activation: 0.9,
    content: 'Every control answers to the keyboard.', summary: 'Keyboard first.' });
  await checkPlan({ model: 'gpt-4o', budget: 120, items });

  // Edit, then Escape: nothing changes and the focus returns to the row.
  await page.keyboard.press('Enter');
  assert.equal(await focused(), 'b-name');
  assert.equal(await page.inputValue('#b-name'), 'keyboard-only');
  await page.keyboard.type(' renamed');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#behavior-form', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.closest('tr')?.dataset.id), 'keyboard-only');
  assert.equal(await page.textContent(`${row('keyboard-only')} .name`), 'keyboard-only');

  // Remove: Tab to the row's Remove, Enter; the focus stays in the table.
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'remove');
  await page.keyboard.press('Enter');
  await page.waitForSelector(row('keyboard-only'), { state: 'detached' });
  assert.equal(await focused(), 'edit', 'the focus moves to the next row');
  items.pop();
  await checkPlan({ model: 'gpt-4o', budget: 120, items });
});

test('JSON views: request and answer labelled, shown on demand, copied whole', async () => {
  const disclose = 'button.disclose[aria-controls="plan-json"]';
  await page.locator(disclose).first().scrollIntoViewIfNeeded();
  await page.click(disclose);
  assert.equal(await page.getAttribute(disclose, 'aria-expanded'), 'true');
  for (const id of ['plan-request', 'plan-answer']) {
    const label = await page.$eval(`#${id}`, (e) => document.getElementById(e.getAttribute('aria-labelledby'))?.textContent);
    assert.equal(label, id.endsWith('request') ? 'Request' : 'Answer');
  }
  const { request, answer: shown } = await page.evaluate(() => window.tokenfitDemo.plan);
  assert.deepEqual(JSON.parse(await page.textContent('#plan-request')), request);
  assert.deepEqual(JSON.parse(await page.textContent('#plan-answer')), shown);
  await page.click('button.copy[data-copy="plan-request"]');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.deepEqual(JSON.parse(copied), request);
  assert.deepEqual(answer('plan', JSON.parse(copied)), shown, 'the copied request gives the shown answer from the CLI');
  await page.screenshot({ path: join(results, '13-json.png') });
  await page.click(disclose);
  assert.equal(await page.isHidden('#plan-json'), true);
});

async function checkPlan(req) {
  const want = answer('plan', req);
  const got = await waitFor('plan', req);
  assert.deepEqual(got, want);
  for (const it of want.items) {
    const row = `#plan-items tr[data-id="${it.id}"]`;
    assert.equal(await page.$eval(`${row} .tier`, (e) => e.dataset.tier), it.tier, `${it.id}'s tier`);
    assert.equal(await page.$eval(`${row} .n`, (e) => Number(e.dataset.tokens)), it.tokens, `${it.id}'s tokens`);
  }
  const reasons = await page.$$eval('#reasons li', (ls) => ls.map((l) => l.textContent));
  want.items.forEach((it, i) => assert.ok(reasons[i].endsWith(it.reason), reasons[i]));
  assert.equal(await page.$eval('#plan-summary', (e) => Number(e.dataset.total)), want.totalTokens);
  assert.equal(await page.textContent('#plan-text'), want.text || '(nothing injected)');
  const demotions = await page.$$eval('#demotions li', (ls) => ls.map((l) => l.textContent));
  assert.equal(want.demotions.length ? demotions.length : 1, Math.max(1, want.demotions.length));
  return want;
}

test('the chat panel shows countChat: per message, tools, priming, exact or its upper bound', async () => {
  const check = async (req) => {
    const want = answer('chat', req);
    const got = await waitFor('chat', req);
    assert.deepEqual(got, want);
    const cell = (k) => page.textContent(`#chat-table td[data-k="${k}"]`);
    for (const [i, n] of want.perMessage.entries()) assert.equal(await cell(`message-${i}`), fmt(n));
    for (const k of ['tools', 'toolChoice', 'priming', 'total', 'upperBound']) assert.equal(await cell(k), fmt(want[k]), k);
    assert.ok((await page.textContent('#chat-summary')).startsWith(`${fmt(want.total)} prompt tokens`));
    return want;
  };
  const a = await check(samples.chatRequest);
  assert.ok(a.tools > 0 && a.perMessage.length === 4);
  await page.locator('#h-chat').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, '12-chat.png') });
  // An estimated model: the upper bound is said.
  const claude = { ...samples.chatRequest, model: 'claude-sonnet-4-5' };
  await page.fill('#chat-request', JSON.stringify(claude, null, 2));
  const b = await check(claude);
  assert.equal(b.exact, false);
  assert.match(await page.textContent('#chat-summary'), new RegExp(`up to ${fmt(b.upperBound)}`));
  // Not JSON: marked at the field, nothing stale.
  await page.fill('#chat-request', '{"model": "gpt-4o", "messages": [');
  await page.waitForFunction(() => window.tokenfitDemo.chat?.error);
  assert.equal(await page.getAttribute('#chat-request', 'aria-invalid'), 'true');
  assert.equal(await page.$$eval('#chat-table tbody tr', (r) => r.length), 0);
  await page.fill('#chat-request', JSON.stringify(samples.chatRequest, null, 2));
  await check(samples.chatRequest);

  // The other request shapes core reads, from the sample buttons: each says
  // which shape it was read as, and a top-level system prompt has its row.
  for (const shape of ['anthropic', 'gemini', 'aisdk', 'openai']) {
    await page.click(`button.shape[data-shape="${shape}"]`);
    const req = samples.chatRequests[shape];
    const got = await check(req);
    assert.equal(got.shape, shape);
    assert.equal(await page.getAttribute('#chat-summary', 'data-shape'), shape);
    if (shape === 'openai') assert.equal(await page.$('#chat-table td[data-k="system"]'), null);
    else {
      assert.equal(await page.textContent('#chat-table td[data-k="system"]'), fmt(got.system));
      assert.equal(got.exact, false, `${shape} is counted as its OpenAI translation`);
    }
    if (shape === 'anthropic') await page.screenshot({ path: join(results, '14-chat-anthropic.png') });
  }
});

test('keyboard alone reaches every control, with a visible focus', async () => {
  await page.goto(base);
  await page.waitForFunction(() => window.tokenfitDemo?.ready);
  // Everything drawn (the jobs worker opens after the first count), so
  // that nothing under the focus is redrawn while it moves.
  await page.waitForFunction(() => window.tokenfitDemo.plan && window.tokenfitDemo.budget && window.tokenfitDemo.chat, null, { timeout: 60_000 });
  await page.focus('body');
  const seen = [];
  for (let i = 0; i < 50; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const e = document.activeElement;
      const s = getComputedStyle(e);
      const by = e.getAttribute('aria-labelledby');
      const label = e.labels?.[0]?.textContent || e.getAttribute('aria-label') || (by && document.getElementById(by)?.textContent) || e.textContent;
      return { id: e.id, tag: e.tagName, visible: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2, label: (label || '').trim().slice(0, 40) };
    });
    assert.ok(f.visible, `focus on ${f.tag}#${f.id} is not visible`);
    assert.ok(f.label, `${f.tag}#${f.id} has no label`);
    seen.push(f.id || f.tag);
  }
  for (const id of ['model', 'composer', 'paste-sample', 'token-view', 'window', 'sec-system', 'role-1', 'text-1']) {
    assert.ok(seen.includes(id), `Tab never reached #${id} (order: ${seen.join(' ')})`);
  }
  assert.ok(seen.indexOf('model') < seen.indexOf('composer') && seen.indexOf('composer') < seen.indexOf('window'), 'focus follows the page');
  // The count is announced politely, once typing pauses.
  await page.click('#clear-composer');
  await page.focus('#composer');
  await page.keyboard.type('Announce me');
  const said = `${fmt(count('Announce me', 'gpt-4o'))} tokens, o200k_base`;
  await page.waitForFunction((said) => document.querySelector('#count-announce').textContent === said, said);
  assert.equal(await page.getAttribute('#count-announce', 'aria-live'), 'polite');
});

// blankness: the luminance variance and the number of distinct colours of a
// PNG, measured by the browser itself.
async function pixels(png) {
  const p = await context.newPage();
  try {
    return await p.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = new OffscreenCanvas(img.width, img.height);
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, img.width, img.height).data;
      let sum = 0;
      let sq = 0;
      const colours = new Set();
      for (let i = 0; i < d.length; i += 4) {
        const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
        sum += y;
        sq += y * y;
        if (colours.size < 5000) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      }
      const n = d.length / 4;
      return { variance: sq / n - (sum / n) ** 2, colours: colours.size, width: img.width, height: img.height };
    }, png.toString('base64'));
  } finally {
    await p.close();
  }
}

test('screenshots, wide and narrow, are not blank; at 390 px no sideways scroll and no word broken', async () => {
  await page.click('#clear-composer');
  await page.click('#composer');
  await page.keyboard.type('Screenshots: the count, the tokens, the budget and the plan.');
  await page.click('#sample-history');
  await page.fill('#window', '6000');
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(results, 'demo-full.png'), fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  const wide = await page.screenshot({ path: join(results, 'demo.png') });
  const w = await pixels(wide);
  console.log(`# screenshot ${w.width}x${w.height}: luminance variance ${w.variance.toFixed(0)}, ${w.colours} colours`);
  assert.ok(w.variance > 500 && w.colours > 50, `the screenshot looks blank: ${JSON.stringify(w)}`);

  for (const width of [390, 375]) {
    await page.setViewportSize({ width, height: 844 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than a ${width}px screen`);
    // No word broken mid-word: every run of letters in the page's own text
    // (not the user's text in fields and token views) lies on one line.
    const broken = await page.evaluate(() => {
      const out = [];
      const skip = 'textarea, pre, input, select, option, #token-view, #id-list, #token-info, .sr-only, [hidden]';
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        if (t.parentElement.closest(skip) || !t.parentElement.offsetParent) continue;
        for (const m of t.data.matchAll(/[A-Za-z]{2,}/g)) {
          const r = document.createRange();
          r.setStart(t, m.index);
          r.setEnd(t, m.index + m[0].length);
          const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
      return out;
    });
    assert.deepEqual(broken, [], `words broken mid-word at ${width}px`);
    // Words that run together: a tier and its token count in the plan table.
    const rows = await page.$$eval('#plan-items tbody tr', (trs) => trs.map((tr) => tr.innerText.replace(/\s+/g, ' ')));
    for (const r of rows) assert.doesNotMatch(r, /(full|summary|nameOnly|omitted)\d/, r);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  const narrow = await page.screenshot({ path: join(results, 'demo-narrow.png') });
  const n = await pixels(narrow);
  assert.ok(n.variance > 500 && n.colours > 50, `the narrow screenshot looks blank: ${JSON.stringify(n)}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#h-plan').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, '10-narrow-plan.png') });
  await page.locator('#h-budget').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, '11-narrow-budget.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
});
