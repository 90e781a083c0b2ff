// Keystroke → count in a 1 MB document, against a plain text area's own
// keystroke → frame, measured in the same Chromium run (make bench-demo,
// part of make bench). Prints the medians and their ratio; the goal is a
// ratio of 1.5 or less (the count on screen within a frame of the text
// area's own update). A benchmark, not a test: it asserts nothing.
//
//   node bench/keystroke.mjs        (from web-demo/, once dist/ is built)

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import * as samples from '../src/samples.js';

const KEYS = Number(process.env.KEYS ?? 25);
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const here = new URL('..', import.meta.url).pathname;

const server = spawn(process.execPath, ['server.mjs'], { cwd: here, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/localhost:\d+\//);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`server.mjs exited with ${code}`)));
});
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const doc = samples.document();

try {
  // The page, with the 1 MB document pasted and everything that follows a
  // paste done (token view, estimate, budget: the jobs worker idle again).
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(base);
  await page.waitForFunction(() => window.tokenfitDemo?.ready, null, { timeout: 120_000 });
  await page.$eval('#composer', (c, v) => {
    c.value = v;
    c.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste' }));
  }, doc);
  await page.waitForFunction((n) => document.querySelector('#count').dataset.state === 'ready' && window.tokenfitDemo.budget?.request?.sections?.current?.length === n,
    doc.length, { timeout: 300_000, polling: 500 });
  await page.waitForTimeout(500);
  await page.focus('#composer');
  await page.keyboard.press('Control+End');

  // A plain text area in a page of its own, with the same text and the
  // composer's own box and font: keydown → the next frame after its input
  // event (the frame that shows the character).
  const style = await page.$eval('#composer', (c) => {
    const cs = getComputedStyle(c);
    return ['width', 'height', 'font-family', 'font-size', 'line-height', 'padding', 'border', 'box-sizing', 'white-space', 'letter-spacing']
      .map((k) => `${k}:${cs.getPropertyValue(k)}`).join(';');
  });
  const bare = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage(); // a window of its own: both stay visible
  await bare.setContent(`<textarea id="t" spellcheck="false" style='${style.replaceAll("'", '"')}'></textarea>`);
  await bare.$eval('#t', (t, v) => {
    t.value = v;
    window.frames_ = [];
    window.waits_ = [];
    let down = 0;
    t.addEventListener('keydown', (e) => (down = e.timeStamp));
    t.addEventListener('input', (e) => {
      window.waits_.push(performance.now() - e.timeStamp);
      requestAnimationFrame(() => window.frames_.push(performance.now() - down));
    });
  }, doc);
  await bare.focus('#t');
  await bare.keyboard.press('Control+End');

  // Keystrokes alternate between the two (each in a window of its own, so
  // that neither is a hidden tab), so that both see the same load.
  const before = await page.evaluate(() => window.tokenfitDemo.perf.length);
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type('z');
    await page.waitForFunction((n) => window.tokenfitDemo.perf.length > n, before + i, { timeout: 60_000 });
    await page.waitForTimeout(150);
    await bare.keyboard.type('z');
    await bare.waitForFunction((n) => window.frames_.length > n, i, { timeout: 60_000 });
    await bare.waitForTimeout(150);
  }
  const keys = (await page.evaluate(() => window.tokenfitDemo.perf)).slice(before).filter((p) => p.kind === 'type');
  const plain = await bare.evaluate(() => window.frames_);
  const pageMs = median(keys.map((k) => k.fromKeyMs));
  const plainMs = median(plain);
  const plainWait = median(await bare.evaluate(() => window.waits_));
  // Each pair's ratio (a keystroke on the page, then one in the plain text
  // area): steadier under a changing load than the medians' ratio.
  const pairs = median(keys.map((k, i) => k.fromKeyMs / plain[i]));
  const m = (k) => median(keys.map((x) => x[k]));
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

  console.log(`keystroke → on screen in a 1 MB document, Chromium, medians of ${KEYS} (load average ${load})`);
  console.log(`  the demo, key → count painted   ${pageMs.toFixed(1)} ms`);
  console.log(`    input event → count set        ${m('countMs').toFixed(1)} ms (the handler's wait ${m('handlerMs').toFixed(1)}, the value ${m('valueMs').toFixed(1)}, the live counter's update ${m('workerMs').toFixed(2)}, showing it ${m('showMs').toFixed(1)}); → the frame showing it ${m('frameMs').toFixed(1)} ms`);
  console.log(`  a plain text area, key → frame  ${plainMs.toFixed(1)} ms (input event → its handler ${plainWait.toFixed(1)} ms)`);
  console.log(`  ratio                           ${(pageMs / plainMs).toFixed(2)} of the medians, ${pairs.toFixed(2)} the median pair (goal ≤ 1.5)`);
} finally {
  await browser.close();
  server.kill();
}
