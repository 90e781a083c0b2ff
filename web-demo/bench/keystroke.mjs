// Keystroke → count in a 1 MB document, against a plain text area's own
// keystroke → frame, measured in the same Chromium run (make bench-demo,
// part of make bench). Prints the medians and their ratio; the goal is a
// ratio of 1.5 or less (the count on screen within a frame of the text
// area's own update). A benchmark, not a test: it asserts nothing.
//
//   node bench/keystroke.mjs        (from web-demo/, once dist/ is built)

import { spawn } from 'node:child_process';
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
  // The page: keydown → the frame that shows the new count.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(base);
  await page.waitForFunction(() => window.tokenfitDemo?.ready, null, { timeout: 120_000 });
  await page.$eval('#composer', (c, v) => {
    c.value = v;
    c.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste' }));
  }, doc);
  await page.waitForFunction((n) => document.querySelector('#count').dataset.state === 'ready' && document.querySelector('#composer').value.length === n, doc.length, { timeout: 120_000 });
  await page.waitForTimeout(2000); // the token view and budget of the paste settle
  await page.focus('#composer');
  await page.keyboard.press('Control+End');
  const before = (await page.evaluate(() => window.tokenfitDemo.perf.length));
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type('z');
    await page.waitForFunction((n) => window.tokenfitDemo.perf.length > n, before + i, { timeout: 60_000 });
    await page.waitForTimeout(150);
  }
  const keys = (await page.evaluate(() => window.tokenfitDemo.perf)).slice(before).filter((p) => p.kind === 'type');
  const pageMs = median(keys.map((k) => k.fromKeyMs));
  const workerMs = median(keys.map((k) => k.workerMs));
  const countMs = median(keys.map((k) => k.countMs));
  const frameMs = median(keys.map((k) => k.frameMs));
  await page.close();

  // A plain text area with the same text: keydown → the next frame after
  // its input event (the frame that shows the character).
  const bare = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await bare.setContent('<textarea id="t" rows="9" style="width:600px;font-family:monospace"></textarea>');
  await bare.$eval('#t', (t, v) => {
    t.value = v;
    window.frames_ = [];
    let down = 0;
    t.addEventListener('keydown', (e) => (down = e.timeStamp));
    t.addEventListener('input', () => requestAnimationFrame(() => window.frames_.push(performance.now() - down)));
  }, doc);
  await bare.focus('#t');
  await bare.keyboard.press('Control+End');
  for (let i = 0; i < KEYS; i++) {
    await bare.keyboard.type('z');
    await bare.waitForFunction((n) => window.frames_.length > n, i, { timeout: 60_000 });
    await bare.waitForTimeout(150);
  }
  const plainMs = median(await bare.evaluate(() => window.frames_));

  console.log('keystroke → on screen in a 1 MB document, Chromium, medians of', KEYS);
  console.log(`  the demo, key → count painted   ${pageMs.toFixed(1)} ms (the live counter's update: ${workerMs.toFixed(2)} ms)`);
  console.log(`    input event → count set        ${countMs.toFixed(1)} ms; → the frame showing it ${frameMs.toFixed(1)} ms`);
  console.log(`  a plain text area, key → frame  ${plainMs.toFixed(1)} ms`);
  console.log(`  ratio                           ${(pageMs / plainMs).toFixed(2)} (goal ≤ 1.5)`);
} finally {
  await browser.close();
  server.kill();
}
