// The page: a composer with a live token count and a token view, a chat
// request, a context budget and an injection plan. The live count runs in
// the page's own tokenfit instance (one update per keystroke); everything
// that reads the whole text runs in the jobs worker (worker.js), both
// through the package. This file keeps state and draws.

import './style.css';
import * as samples from './samples.js';
import { prepare } from './boot.js';
import { encodingOf, registry } from './registry.js';
import { open } from './tokenfit.js';
import { tokenGroups } from './tokens.js';

const $ = (sel) => document.querySelector(sel);

// el makes an element: el('td', { className: 'n', dataset: { k: 'tokens' } }, child…).
// Properties are set as properties ('for' as htmlFor); children are nodes
// or text. Never markup in strings: the page runs under Trusted Types.
function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('aria-') || k === 'for' || k === 'scope') e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}
const num = new Intl.NumberFormat('en-US');
const pct = (x) => `${(x * 100).toFixed(1)} %`;

// Measurements the tests read (and anyone can, from the console).
// startup: the first visit's phases, in ms since navigation (start()).
const demo = (window.tokenfitDemo = { ready: false, perf: [], startup: {} });

// ---- workers --------------------------------------------------------------

// The server requires Trusted Types (server.mjs): the page's one script URL,
// its worker's, goes through the policy "tokenfit-demo", which allows
// nothing else. A policy that allows no such name stops the page with
// a message that says what to change.
let trustedWorkerURL;
function workerURL() {
  const url = new URL('./worker.js', import.meta.url).href;
  if (!globalThis.trustedTypes) return url;
  if (trustedWorkerURL) return trustedWorkerURL;
  let policy;
  try {
    policy = trustedTypes.createPolicy('tokenfit-demo', {
      createScriptURL: (u) => {
        if (u !== url) throw new TypeError(`tokenfit-demo: refusing the script URL ${u}`);
        return u;
      },
    });
  } catch (e) {
    throw new Error(
      `this page's Content-Security-Policy requires Trusted Types and allows no policy named "tokenfit-demo" for its worker: add "trusted-types tokenfit-demo" to it (${e.message})`,
    );
  }
  return (trustedWorkerURL = policy.createScriptURL(url));
}

function startWorker(name) {
  let w;
  try {
    w = new Worker(workerURL(), { type: 'module', name });
  } catch (e) {
    return () => Promise.reject(e); // start() shows it
  }
  const pending = new Map();
  let next = 0;
  w.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    pending.delete(data.id);
    if (data.error) p.reject(Object.assign(new Error(data.error.message), data.error));
    else p.resolve(data.ok);
  };
  w.onerror = (e) => fail(new Error(`the ${name} worker failed: ${e.message}`));
  return (op, args = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      w.postMessage({ id, op, ...args });
    });
}

// The counter worker does nothing but the live count, so that a keystroke
// never waits behind a token view or a budget of a 1 MB text.
// The jobs worker opens after the first count is on screen (start), and
// every job waits for it: the count is what a first visit waits for.
const jobsWorker = startWorker('jobs');
let jobsOpen;
const jobsOpened = new Promise((r) => (jobsOpen = r));
const jobs = (op, args) => jobsOpened.then(() => jobsWorker(op, args));

function fail(err) {
  const s = $('#status');
  s.textContent = `Error: ${err.message}`;
  s.classList.add('error');
  console.error(err);
}

// debounce runs fn once calls pause for ms (a number, or a function
// giving it at each call).
function debounce(fn, ms) {
  let t;
  return () => {
    clearTimeout(t);
    t = setTimeout(() => fn().catch(fail), typeof ms === 'function' ? ms() : ms);
  };
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));

// ---- state ----------------------------------------------------------------

const state = {
  model: 'gpt-4o',
  models: registry.models, // the full module's tf.models(), taken by build.mjs
  estimators: registry.estimators,
  text: '', // what the live counter holds
  history: samples.conversation(6),
  behaviors: structuredClone(samples.behaviors),
};

const modelInfo = (id) => state.models.find((m) => m.id === id);

// ---- model ----------------------------------------------------------------

function fillModels() {
  const sel = $('#model');
  const groups = new Map();
  for (const m of state.models) {
    if (!groups.has(m.provider)) groups.set(m.provider, []);
    groups.get(m.provider).push(m);
  }
  sel.replaceChildren(
    ...[...groups].map(([provider, ms]) => {
      const g = document.createElement('optgroup');
      g.label = provider;
      g.append(...ms.map((m) => new Option(`${m.id} — ${num.format(m.contextWindow)}`, m.id)));
      return g;
    }),
  );
  sel.value = state.model;
  sel.disabled = false;
}

function showModel() {
  const m = modelInfo(state.model);
  const est = m.estimator && state.estimators[m.estimator];
  const tokenizer = m.encoding
    ? `${m.encoding} (exact)`
    : `estimate: ${est.base} × ${est.ratio}, up to +${Math.round(est.errorBound * 100)} %`;
  const facts = [
    ['Context window', num.format(m.contextWindow), 'contextWindow'],
    ['Max output', m.maxOutput ? num.format(m.maxOutput) : '—', 'maxOutput'],
    ['Response reserve', num.format(m.responseReserve), 'responseReserve'],
    ['Effective input budget', num.format(m.effectiveInputBudget), 'effectiveInputBudget'],
    ['Tokenizer', tokenizer, 'tokenizer'],
  ];
  $('#model-facts').replaceChildren(
    ...facts.flatMap(([k, v, key]) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      dd.dataset.k = key;
      return [dt, dd];
    }),
  );
  $('#window').placeholder = String(m.contextWindow);
}

async function changeModel() {
  state.model = $('#model').value;
  showModel();
  if (!demo.ready) return; // start() counts for the model chosen by then
  const t0 = performance.now();
  setCounting(true);
  const r = await openCounter(state.model, state.text);
  showCount(r.tokens, r.encoding);
  demo.perf.push({ kind: 'model', chars: state.text.length, countMs: performance.now() - t0, workerMs: r.ms });
  refreshAll();
}

// ---- composer and live count ----------------------------------------------
//
// The live count runs on the main thread, in the page's own instance of the
// package: a keystroke's count is made in the input event (the package's
// liveCounter.update finds the edit from the caret: O(edit), not O(text))
// and painted in the same frame as the keystroke. A worker would need the
// whole text copied to it on every keystroke (80 ms for 1 MB on a loaded
// machine) or a copy of update's edit-finding here.

const live = { tf: null, lc: null };

// openCounter (re)opens the live counter for a model's encoding over text.
async function openCounter(model, text) {
  const enc = encodingOf(model);
  await live.tf.loadEncoding(enc);
  live.lc?.dispose();
  const t0 = performance.now();
  live.lc = live.tf.liveCounter({ encoding: enc }, '');
  const tokens = live.lc.reset(text);
  return { tokens, encoding: enc, ms: performance.now() - t0 };
}

const composer = $('#composer');
let startedAt = 0; // when the latest keydown or paste happened
let encoding = 'o200k_base';

function setCounting(on) {
  $('#count').dataset.state = on ? 'counting' : 'ready';
}

// Screen readers hear the count once typing pauses, not on every keystroke.
const announce = debounceSync(() => {
  const c = $('#count');
  $('#count-announce').textContent = `${num.format(Number(c.dataset.tokens))} tokens, ${c.dataset.encoding}`;
}, 700);

function debounceSync(fn, ms) {
  let t;
  return () => {
    clearTimeout(t);
    t = setTimeout(fn, ms);
  };
}

// showCount shows a count, and how long it took when tookMs is given.
function showCount(tokens, enc = encoding, tookMs) {
  encoding = enc;
  const c = $('#count');
  c.querySelector('[data-tokens]').textContent = num.format(tokens);
  c.dataset.tokens = tokens;
  c.dataset.encoding = enc;
  setCounting(false);
  $('#count-detail').textContent =
    `${enc}, exact${modelInfo(state.model)?.encoding ? '' : `, the base of ${state.model}'s estimate`} · ${num.format(state.text.length)} characters` + (tookMs === undefined ? '' : ` · counted in ${ms(tookMs)} ms`);
  announce();
  showAnswers();
}

// showAnswers shows what the count means for the model: its share of the
// window and its input cost. For a model without a public tokenizer both
// come from its estimate, and the share from the estimate's upper bound,
// as budgets count it; until that estimate is in, they say so.
function showAnswers() {
  const m = modelInfo(state.model);
  if (!m) return;
  const est = estimate.model === state.model && estimate.text === state.text ? estimate.answer : null;
  const exact = !!m.encoding;
  const tokens = exact ? Number($('#count').dataset.tokens) : est?.tokens;
  const upper = exact ? tokens : est?.upperBound;
  const share = $('#share');
  const cost = $('#cost');
  if (tokens === undefined || Number.isNaN(tokens)) {
    share.textContent = cost.textContent = 'counting…';
    return;
  }
  share.textContent = `${exact ? '' : 'up to '}${pctFine(upper / m.contextWindow)} of ${m.id}'s ${num.format(m.contextWindow)}-token window`;
  share.dataset.tokens = upper;
  const p = m.price; // the package's registry: its price list's source and date
  cost.replaceChildren();
  if (!p) {
    cost.textContent = `tokenfit's registry has no price for ${m.id}`;
    delete cost.dataset.usd;
    return;
  }
  const usd = (n) => `$${(n * p.input / 1e6).toFixed(n * p.input < 1e4 ? 6 : 2)}`;
  cost.append(`${usd(tokens)}${exact ? '' : ` (up to ${usd(upper)})`} at $${p.input.toFixed(2)} per million input tokens · price list: ${p.source}, ${p.date}`);
  cost.dataset.usd = tokens * p.input / 1e6;
}

// pctFine shows small shares with two significant digits, never as 0.0 %.
const pctFine = (x) => (x === 0 ? '0 %' : x >= 0.001 ? pct(x) : `${(x * 100).toPrecision(2)} %`);

const ms = (x) => (x < 10 ? x.toFixed(1) : String(Math.round(x)));

composer.addEventListener('keydown', (e) => {
  startedAt = e.timeStamp;
});
composer.addEventListener('paste', (e) => {
  startedAt = e.timeStamp;
});
composer.addEventListener('input', (e) => {
  const tKey = startedAt && e.timeStamp - startedAt < 1000 ? startedAt : e.timeStamp;
  textChanged(e.timeStamp, tKey, e.inputType === 'insertFromPaste' ? 'paste' : 'type');
  startedAt = 0;
});

// textChanged gives the composer's new value and caret to the live counter
// and shows the count, in the same task as the input event.
function textChanged(t0, tKey, kind) {
  if (!demo.ready) return; // start() counts whatever the composer holds by then
  const t = performance.now();
  const now = composer.value;
  const tValue = performance.now();
  if (now === state.text) return;
  const inserted = Math.max(0, now.length - state.text.length);
  state.text = now;
  let tokens;
  const t1 = performance.now();
  try {
    tokens = live.lc.update(now, composer.selectionEnd);
  } catch (e) {
    fail(e);
    return;
  }
  const shown = performance.now();
  showCount(tokens, encoding, shown - t0);
  const drawn = performance.now();
  nextFrame().then(() => {
    const painted = performance.now();
    demo.perf.push({
      kind, chars: now.length, inserted,
      countMs: shown - t0, // input event → count in the page
      frameMs: painted - t0, // input event → the frame showing it
      fromKeyMs: painted - tKey, // keydown or paste → that frame, the text area's own work included
      workerMs: shown - t1, // the live counter's update (on the main thread; the name is kept for perf.json)
      handlerMs: t - t0, // input event → this handler
      valueMs: tValue - t, // reading the text area's value
      showMs: drawn - shown, // showing the count
    });
  });
  refreshText();
}

function replaceComposer(text, kind) {
  const t0 = performance.now();
  composer.value = text;
  composer.setSelectionRange(text.length, text.length);
  textChanged(t0, t0, kind);
}

$('#paste-sample').addEventListener('click', () => replaceComposer(samples.document(), 'sample'));
$('#clear-composer').addEventListener('click', () => replaceComposer('', 'clear'));

// ---- token view -------------------------------------------------------------
//
// Each group of tokens is one span: usually one token, but tokens that only
// make a whole character or grapheme together (an emoji split across
// tokens) are shown once, spanning them (worker.js). Colours follow the
// token id, so the same token looks the same everywhere. The view is one
// tab stop: arrow keys (or a tap, or the pointer) pick a token, whose ids
// and text the line below it says, and the id list highlights it.

const PAGE = 1000;
const tv = { seq: 0, groups: [], ids: 0, next: 0, total: 0, loading: false, active: -1, encoding: '' };
const view = $('#token-view');
const idList = $('#id-list');
const sentinel = el('div', { className: 'sentinel' });

const visible = (t) => t.replace(/ /g, '·').replace(/\t/g, '→\t').replace(/\r/g, '␍').replace(/\n/g, '↵\n');

function groupNodes(groups, from) {
  const ws = $('#show-ws').checked;
  const frag = document.createDocumentFragment();
  const ids = document.createDocumentFragment();
  groups.forEach((g, k) => {
    const n = from + k;
    const span = el('span', {
      className: `t c${g.ids[0] % 8}${g.ids.length > 1 ? ' multi' : ''}`,
      id: `tok-${n}`,
      title: `${g.ids.length > 1 ? `${g.ids.length} tokens, ids` : 'id'} ${g.ids.join(', ')}`,
      dataset: { g: n, ids: g.ids.join(' ') },
      textContent: ws ? visible(g.text) : g.text,
    });
    span.setAttribute('role', 'option');
    frag.append(span);
    for (const id of g.ids) ids.append(el('li', { className: `c${g.ids[0] % 8}`, dataset: { g: n }, textContent: String(id) }), ' ');
  });
  return [frag, ids];
}

function draw() {
  const [frag, ids] = groupNodes(tv.groups, 0);
  view.replaceChildren(frag, sentinel);
  idList.replaceChildren(ids);
  setActive(-1);
  caption();
  demo.startup.tokens ??= performance.now(); // the first screen's token view
}

function caption() {
  const shown = tv.next;
  // A model without a public tokenizer has no tokens to show: say whose these are.
  const m = modelInfo(state.model);
  const whose = m && !m.encoding ? `, the base of ${m.id}'s estimate: its own tokenizer is not public, so these are not its tokens` : '';
  $('#token-caption').textContent = tv.total
    ? `${num.format(tv.total)} tokens (${tv.encoding}${whose})${shown < tv.total ? `; showing the first ${num.format(shown)}` : ''}. Pick a token with the arrow keys, a tap or the pointer.`
    : 'No text yet.';
  $('#more-tokens').hidden = shown >= tv.total;
}

// setActive highlights group n in the text and in the id list, and says it.
function setActive(n) {
  for (const e of document.querySelectorAll('#token-view .active, #id-list .active')) {
    e.classList.remove('active');
    e.removeAttribute('aria-selected');
  }
  tv.active = n;
  const info = $('#token-info');
  const g = tv.groups[n];
  if (!g) {
    view.removeAttribute('aria-activedescendant');
    info.textContent = '';
    return;
  }
  const span = $(`#tok-${n}`);
  span.classList.add('active');
  span.setAttribute('aria-selected', 'true');
  view.setAttribute('aria-activedescendant', span.id);
  for (const li of idList.querySelectorAll(`li[data-g="${n}"]`)) li.classList.add('active');
  span.scrollIntoView({ block: 'nearest' });
  const first = tv.groups.slice(0, n).reduce((a, x) => a + x.ids.length, 0) + 1;
  const which = g.ids.length > 1 ? `Tokens ${num.format(first)}–${num.format(first + g.ids.length - 1)}` : `Token ${num.format(first)}`;
  info.textContent = `${which} of ${num.format(tv.total)}: ${g.ids.length > 1 ? 'ids' : 'id'} ${g.ids.join(', ')} · ${JSON.stringify(g.text)}`;
}

// tokenPage returns a page of the token view (tokens.js): for a short text
// from the page's own instance (a few ms, and the first screen's tokens
// come with its count), for a long one from the jobs worker.
const SHORT = 20_000; // characters
const localTokens = tokenGroups();
async function tokenPage(from, to) {
  const encoding = encodingOf(state.model);
  const text = state.text;
  if (text.length > SHORT) return jobs('tokens', { encoding, text, from, to });
  await live.tf.loadEncoding(encoding);
  return localTokens(live.tf, encoding, text, from, to);
}

async function refreshTokens() {
  const seq = ++tv.seq;
  if (!state.text) {
    Object.assign(tv, { groups: [], next: 0, total: 0 });
    draw();
    return;
  }
  const r = await tokenPage(0, PAGE);
  if (seq !== tv.seq) return;
  // An edit past the tokens on show (typing at the end of a long text)
  // leaves them as they are: keep the DOM, update the caption.
  const same = r.encoding === tv.encoding && r.next === tv.next &&
    r.groups.every((g, i) => g.text === tv.groups[i]?.text && g.ids.join() === tv.groups[i].ids.join());
  tv.total = r.total;
  if (same && tv.groups.length === r.groups.length) {
    caption();
    return;
  }
  Object.assign(tv, { groups: r.groups, next: r.next, encoding: r.encoding });
  draw();
}

async function moreTokens() {
  if (tv.loading || tv.next >= tv.total) return;
  tv.loading = true;
  const seq = tv.seq;
  try {
    const from = tv.next;
    const r = await tokenPage(from, from + PAGE);
    if (seq !== tv.seq) return;
    const [frag, ids] = groupNodes(r.groups, tv.groups.length);
    tv.groups = tv.groups.concat(r.groups);
    tv.next = r.next;
    sentinel.before(frag);
    idList.append(ids);
    caption();
  } finally {
    tv.loading = false;
  }
}

new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && moreTokens().catch(fail), { root: view, rootMargin: '200px' }).observe(sentinel);
$('#more-tokens').addEventListener('click', () => moreTokens().catch(fail));
$('#show-ws').addEventListener('change', draw);
$('#show-ids').addEventListener('change', () => {
  $('#ids').hidden = !$('#show-ids').checked;
});
const groupOf = (e) => e.target.closest?.('[data-g]');
for (const box of [view, idList]) {
  box.addEventListener('click', (e) => groupOf(e) && setActive(Number(groupOf(e).dataset.g)));
  box.addEventListener('pointerover', (e) => groupOf(e) && setActive(Number(groupOf(e).dataset.g)));
}
view.addEventListener('keydown', (e) => {
  const last = tv.groups.length - 1;
  const to = { ArrowRight: tv.active + 1, ArrowDown: tv.active + 1, ArrowLeft: tv.active - 1, ArrowUp: tv.active - 1, Home: 0, End: last }[e.key];
  if (to === undefined || last < 0) return;
  e.preventDefault();
  setActive(Math.max(0, Math.min(last, to)));
});

// For models without a public tokenizer the headline is the model's own
// estimate and its upper bound (countTokens' answer); the base encoding's
// exact count goes below it.
const estimate = { model: '', text: '', answer: null };

async function refreshEstimate() {
  const m = modelInfo(state.model);
  const p = $('#estimate');
  $('#count').classList.toggle('secondary', !m.encoding);
  if (m.encoding) {
    p.hidden = true;
    showAnswers();
    return;
  }
  const req = { model: state.model, text: state.text };
  p.dataset.state = 'counting';
  const a = await jobs('estimate', req);
  if (req.model !== state.model || req.text !== state.text) return; // a newer one follows
  Object.assign(estimate, req, { answer: a });
  const est = state.estimators[m.estimator];
  p.hidden = false;
  p.dataset.state = 'ready';
  p.dataset.tokens = a.tokens;
  p.dataset.upper = a.upperBound;
  p.replaceChildren(
    '≈ ', el('span', { textContent: num.format(a.tokens) }), ' tokens ',
    el('span', { className: 'bound', textContent: `up to ${num.format(a.upperBound)}` }),
    el('span', { className: 'why', textContent: `${m.id} has no public tokenizer: tokenfit's estimate is ${est.base} × ${est.ratio}, and the real count may be up to ${Math.round(est.errorBound * 100)} % higher; budgets count the upper bound.` }),
  );
  showAnswers();
}

// ---- budget ---------------------------------------------------------------

const SEGMENTS = [
  ['system', 'System prompt'],
  ['procedure', 'Procedure'],
  ['knowledge', 'Knowledge'],
  ['episodes', 'Episodes'],
  ['current', 'Current message'],
  ['history', 'History, kept'],
  ['summarize', 'History, to summarize'],
  ['dropped', 'History, dropped'],
  ['free', 'Free'],
  ['safety', 'Safety buffer'],
  ['reserve', 'Response reserve'],
];

// numberField reads a number input: undefined when blank, the number when
// whole (core judges its range and names the field when it refuses), and
// marks the field itself when it is not a whole number.
function numberField(sel) {
  const input = $(sel);
  const v = input.valueAsNumber;
  if (input.value === '' && !input.validity.badInput) return undefined;
  if (!Number.isInteger(v)) {
    throw Object.assign(new Error(`${input.labels[0].textContent}: a whole number of tokens, please`), { code: 'invalid_request', input });
  }
  return v;
}

// markField shows an error at its field (and clears the others of form).
function markField(form, input, message) {
  for (const i of form.querySelectorAll('[aria-invalid]')) {
    i.removeAttribute('aria-invalid');
    const m = document.getElementById(`${i.id}-error`);
    if (m) m.hidden = true;
  }
  if (!input) return;
  input.setAttribute('aria-invalid', 'true');
  const m = document.getElementById(`${input.id}-error`);
  if (!m) return;
  m.textContent = message;
  m.hidden = false;
}

// fieldMessage is an error's message without what the field already says:
// "must be a positive number of tokens".
const fieldMessage = (e) => e.message.replace(/^tokenfit: [^:]*: /, '').replace(new RegExp(`^${e.field}: `), '');

// Core names the field it refuses; these are the inputs that hold them.
const FIELDS = { contextWindow: '#window', outputReserve: '#reserve', budget: '#plan-budget' };

function budgetRequest() {
  const req = { model: state.model };
  const w = numberField('#window');
  if (w !== undefined) req.contextWindow = w;
  const r = numberField('#reserve');
  if (r !== undefined) req.outputReserve = r;
  const sections = {};
  for (const ta of document.querySelectorAll('[data-section]')) {
    if (ta.value) sections[ta.dataset.section] = ta.value;
  }
  if (state.text) sections.current = state.text;
  req.sections = sections;
  req.history = state.history.filter((m) => m.content !== '');
  return req;
}

let budgetSeq = 0;
async function refreshBudget() {
  const seq = ++budgetSeq;
  let req;
  let b;
  try {
    req = structuredClone(budgetRequest()); // the state moves on; the request does not
    b = await jobs('budget', req);
  } catch (e) {
    if (seq === budgetSeq) budgetError(e, req);
    return;
  }
  if (seq !== budgetSeq) return;
  markField($('#budget-form'), null);
  drawBudget(req, b);
}

// budgetError clears every result, so that nothing stale stays on screen,
// and says what is wrong where it is wrong.
function budgetError(e, req) {
  const input = e.input ?? (e.field && $(FIELDS[e.field] ?? '#none'));
  markField($('#budget-form'), input, fieldMessage(e));
  const alert = $('#alert');
  alert.className = 'alert level-critical';
  alert.dataset.alert = 'error';
  alert.textContent = `Cannot compute the budget: ${e.message}`;
  $('#bar').replaceChildren();
  $('#bar').setAttribute('aria-label', 'No budget: the request has an error');
  for (const id of ['#legend', '#budget-table tbody', '#budget-explain']) $(id).replaceChildren();
  for (const o of document.querySelectorAll('#history output.fate')) {
    o.textContent = '';
    o.className = 'fate';
    delete o.dataset.fate;
  }
  showJSON('budget-request', req ?? null);
  showJSON('budget-answer', { error: { code: e.code, message: e.message, field: e.field } });
  demo.budget = { request: req, error: { code: e.code, field: e.field, message: e.message } };
}

function drawBudget(req, b) {
  const h = b.history;
  const sumOf = (idx) => idx.reduce((n, i) => n + h.perMessage[i], 0);
  const summarize = sumOf(h.summarize);
  const sizes = {
    ...Object.fromEntries(['system', 'procedure', 'knowledge', 'episodes', 'current'].map((k) => [k, b.sections[k]?.tokens ?? 0])),
    history: Math.max(0, h.keptTokens - summarize),
    summarize,
    dropped: Math.max(0, h.tokens - h.keptTokens),
    free: b.memoryTokens,
    safety: b.safetyBuffer,
    reserve: b.responseReserve,
  };
  const total = Math.max(b.contextWindow, Object.values(sizes).reduce((a, x) => a + x, 0));
  const at = (n) => `${((n / total) * 100).toFixed(3)}%`;

  const bar = $('#bar');
  const parts = SEGMENTS.filter(([k]) => sizes[k] > 0).map(([k, label]) => {
    const d = document.createElement('div');
    d.className = `seg s-${k}`;
    d.style.width = at(sizes[k]);
    d.title = `${label}: ${num.format(sizes[k])} tokens`;
    return d;
  });
  const marks = [
    [0.7, 'warning 70 %'],
    [0.9, 'critical 90 %'],
  ].map(([f, label]) => {
    const m = document.createElement('div');
    m.className = 'mark';
    m.style.left = at(f * b.inputBudget);
    m.title = `${label} of the input budget`;
    m.dataset.label = label.split(' ')[1] + ' %';
    return m;
  });
  if (total > b.contextWindow) {
    const m = document.createElement('div');
    m.className = 'mark window';
    m.style.left = at(b.contextWindow);
    m.dataset.label = 'window';
    marks.push(m);
  }
  bar.replaceChildren(...parts, ...marks);
  bar.setAttribute(
    'aria-label',
    `The ${num.format(b.contextWindow)}-token window: ` +
      SEGMENTS.filter(([k]) => sizes[k] > 0)
        .map(([k, label]) => `${label} ${num.format(sizes[k])}`)
        .join(', '),
  );
  $('#legend').replaceChildren(
    ...SEGMENTS.filter(([k]) => sizes[k] > 0).map(([k, label]) => {
      const li = el('li', {}, el('span', { className: `swatch s-${k}` }), `${label} `, el('b', { textContent: num.format(sizes[k]) }));
      li.dataset.k = k;
      return li;
    }),
  );

  const alert = $('#alert');
  alert.className = `alert level-${b.alert}`;
  alert.dataset.alert = b.alert;
  alert.dataset.utilization = b.utilization;
  const what = { none: 'no alert', warning: 'warning: 70 % reached', critical: 'critical: 90 % reached' }[b.alert];
  alert.textContent =
    `Utilization ${pct(b.utilization)} of the input budget — ${what}.` +
    (h.dropped.length ? ` ${h.dropped.length} history message${h.dropped.length > 1 ? 's' : ''} dropped.` : '') +
    (h.summarize.length ? ` Summarize the oldest ${h.summarize.length} to free about ${num.format(h.summarizeTokens)} tokens.` : '') +
    (b.fallback ? ' (Unknown model: cl100k_base and an 8,192-token window.)' : '');

  const sec = (k) => {
    const s = b.sections[k];
    return s?.truncated ? `${num.format(s.tokens)} (cut from ${num.format(s.originalTokens)})` : num.format(s?.tokens ?? 0);
  };
  const rows = [
    ['Context window', num.format(b.contextWindow), 'contextWindow'],
    ['Response reserve', num.format(b.responseReserve), 'responseReserve'],
    ['Safety buffer', num.format(b.safetyBuffer), 'safetyBuffer'],
    ['Input budget', num.format(b.inputBudget), 'inputBudget'],
    ['System prompt', sec('system'), 'system'],
    ['Procedure', sec('procedure'), 'procedure'],
    ['Knowledge', sec('knowledge'), 'knowledge'],
    ['Episodes', sec('episodes'), 'episodes'],
    ['Current message', sec('current'), 'current'],
    ['History budget', b.historyBudget < 0 ? `none (${num.format(b.historyBudget)})` : num.format(b.historyBudget), 'historyBudget'],
    ['History (as given → kept)', `${num.format(h.tokens)} → ${num.format(h.keptTokens)}`, 'historyTokens'],
    ['Used', num.format(b.usedTokens), 'usedTokens'],
    ['Memory tokens left', `${num.format(b.memoryTokens)}${b.isConstrained ? ' (constrained)' : ''}`, 'memoryTokens'],
    ['Utilization after pruning', pct(b.utilizationAfterPruning), 'utilizationAfterPruning'],
  ];
  $('#budget-table tbody').replaceChildren(
    ...rows.map(([k, v, key]) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = k;
      const td = document.createElement('td');
      td.textContent = v;
      td.dataset.k = key;
      tr.append(th, td);
      return tr;
    }),
  );

  explainBudget(b);

  // Each history turn's fate, beside it in the editor.
  const status = new Map();
  for (const i of h.kept) status.set(i, 'kept');
  for (const i of h.summarize) status.set(i, 'summarize');
  for (const i of h.dropped) status.set(i, 'dropped');
  const sent = state.history.map((m, i) => [m, i]).filter(([m]) => m.content !== '');
  const items = [...$('#history').children];
  items.forEach((li) => {
    const o = li.querySelector('output');
    o.textContent = '';
    o.className = 'fate';
  });
  sent.forEach(([, i], j) => {
    const o = items[i]?.querySelector('output');
    if (!o) return;
    const s = status.get(j) ?? 'kept';
    o.textContent = `${s === 'summarize' ? 'summarize' : s} · ${num.format(h.perMessage[j])}`;
    o.className = `fate f-${s}`;
    o.dataset.fate = s;
  });

  showJSON('budget-request', req);
  showJSON('budget-answer', b);
  demo.budget = { request: req, answer: b };
}

// explainBudget says, in words, why a request does not fit and what would
// make it fit: core's overflow, minimum-history and remedy fields.
const SECTION_NAMES = { system: 'the system prompt', procedure: 'the procedure', knowledge: 'the knowledge', episodes: 'the episodes', current: 'the current message', directive: 'the directive', tools: 'the tool definitions' };

// turns names history messages (0-based indices) as turns 1-based ranges:
// "turns 6–60 (55)".
function turns(idx = []) {
  const runs = [];
  for (const i of idx) {
    const last = runs.at(-1);
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  const text = runs.map(([a, b]) => (a === b ? `${a + 1}` : `${a + 1}–${b + 1}`)).join(', ');
  return idx.length === 1 ? `turn ${text}` : `turns ${text} (${idx.length})`;
}

function explainBudget(b) {
  const items = [];
  const say = (k, ...parts) => items.push(el('li', { dataset: { k } }, ...parts));
  if (b.fixedOverflowTokens) {
    const parts = (b.overflowSections ?? []).map((x) => `${SECTION_NAMES[x.section] ?? x.section} ${num.format(x.tokens)}`).join(', ');
    say('fixedOverflow', el('b', { textContent: `The fixed parts alone are ${num.format(b.fixedOverflowTokens)} tokens over the input budget` }),
      ` (${parts}): no pruning or summarizing of history can make this request fit.`);
  } else if (b.overflowTokens) {
    say('overflow', el('b', { textContent: `After pruning, the request is ${num.format(b.overflowTokens)} tokens over the input budget.` }));
  }
  if (b.minHistoryExcess) {
    say('minHistory', `The kept history is ${num.format(b.minHistoryExcess)} tokens over its budget: the minimum history (limits.minHistoryTokens, 4,000 unless set) keeps it.`);
  }
  for (const r of b.remedies ?? []) {
    const fits = r.fits ? ' — enough on its own' : '';
    const what = {
      summarizeHistory: () => `Summarize ${turns(r.messages)}: frees up to ${num.format(r.tokens)} tokens`,
      dropHistory: () => `Drop ${turns(r.messages)} (lower the minimum history): frees ${num.format(r.tokens)} tokens`,
      capSection: () => `Cap ${SECTION_NAMES[r.section] ?? r.section} at ${num.format(r.maxTokens)} tokens: frees ${num.format(r.tokens)}`,
      truncate: () => `Cut ${SECTION_NAMES[r.section] ?? r.section} to ${num.format(r.maxTokens)} tokens (truncate), or send it in chunks of that size (chunk): frees ${num.format(r.tokens)}`,
      largerModel: () => `Use ${r.model} (a ${num.format(r.contextWindow)}-token window): ${num.format(r.tokens)} more tokens of input budget`,
    }[r.action];
    say('remedy', el('span', { className: 'remedy', textContent: `${what ? what() : `${r.action}: frees ${num.format(r.tokens)} tokens`}${fits}.` }));
  }
  $('#budget-explain').replaceChildren(...items);
}

// ---- JSON views -----------------------------------------------------------
//
// Each request and answer in full, ready to paste, with a copy button. They
// sit in a panel shown with `hidden`, never in a closed <details>: Chromium
// keeps a closed <details>' content in a locked subtree, and a select-all
// in a 1 MB text area beside one took 23-130 s of selection sync (a bare
// text area: under 2 s). content-visibility: auto on the cards below the
// composer (to skip their first layout) locks them the same way: 209 s.
// The test "Ctrl+A in a 1 MB document" keeps it so.

const SHOWN = 100_000; // characters drawn; the copy button copies them all
const jsonText = new Map(); // pre id → the full JSON

function showJSON(id, value) {
  const text = JSON.stringify(value, null, 1);
  jsonText.set(id, text);
  $(`#${id}`).textContent =
    text.length > SHOWN ? `${text.slice(0, SHOWN)}\n… the first ${num.format(SHOWN)} of ${num.format(text.length)} characters shown; Copy copies them all` : text;
}

for (const b of document.querySelectorAll('button.disclose')) {
  b.addEventListener('click', () => {
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
    document.getElementById(b.getAttribute('aria-controls')).hidden = !open;
  });
}
for (const b of document.querySelectorAll('button.copy')) {
  const label = b.textContent;
  b.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(jsonText.get(b.dataset.copy) ?? '');
      b.textContent = 'Copied';
    } catch (e) {
      b.textContent = `Cannot copy: ${e.message}`;
    }
    setTimeout(() => (b.textContent = label), 1500);
  });
}

function drawHistory() {
  const ol = $('#history');
  ol.replaceChildren(
    ...state.history.map((m, i) => {
      const n = i + 1;
      const li = el('li', {},
        el('div', { className: 'turn-head' },
          el('label', { for: `role-${n}`, className: 'sr-only', textContent: `Turn ${n} role` }),
          el('select', { id: `role-${n}` }, ...['system', 'user', 'assistant'].map((r) => new Option(r, r))),
          el('output', { className: 'fate', for: `text-${n}` }),
          el('button', { type: 'button', className: 'remove', 'aria-label': `Remove turn ${n}`, textContent: 'Remove' })),
        el('label', { for: `text-${n}`, className: 'sr-only', textContent: `Turn ${n} text` }),
        el('textarea', { id: `text-${n}`, rows: 2 }));
      const roleSel = li.querySelector('select');
      roleSel.value = m.role;
      roleSel.addEventListener('change', () => {
        m.role = roleSel.value;
        refreshBudgetSoon();
      });
      const ta = li.querySelector('textarea');
      ta.value = m.content;
      ta.addEventListener('input', () => {
        m.content = ta.value;
        refreshBudgetSoon();
      });
      li.querySelector('.remove').addEventListener('click', () => {
        state.history.splice(i, 1);
        drawHistory();
        const next = ol.querySelectorAll('textarea')[Math.min(i, state.history.length - 1)];
        (next ?? $('#add-turn')).focus();
        refreshBudgetSoon();
      });
      return li;
    }),
  );
}

$('#add-turn').addEventListener('click', () => {
  const last = state.history.at(-1);
  state.history.push({ role: last?.role === 'user' ? 'assistant' : 'user', content: '' });
  drawHistory();
  $('#history').lastElementChild.querySelector('textarea').focus();
});
$('#sample-history').addEventListener('click', () => {
  state.history = samples.conversation(60);
  drawHistory();
  refreshBudgetSoon();
});
$('#clear-history').addEventListener('click', () => {
  state.history = [];
  drawHistory();
  refreshBudgetSoon();
});
$('#budget-form').addEventListener('input', (e) => {
  if (!e.target.closest('#history')) refreshBudgetSoon();
});
$('#budget-form').addEventListener('submit', (e) => e.preventDefault());

// ---- plan -----------------------------------------------------------------

// Tiers are shown by the names core gives them (and its reasons use).
const TIER = { full: 'full', summary: 'summary', nameOnly: 'nameOnly', omitted: 'omitted' };

function drawBehaviors() {
  $('#plan-items tbody').replaceChildren(
    ...state.behaviors.map((it) => {
      const id = `act-${it.id}`;
      const tr = el('tr', { dataset: { id: it.id } },
        el('th', { scope: 'row' },
          el('span', { className: 'name', textContent: it.name }), ' ', el('span', { className: 'kind', textContent: `[${it.kind}]` }),
          el('br'), el('span', { className: 'tags', textContent: it.tags.map((t) => `#${t}`).join(' ') }),
          el('span', { className: 'row-actions' },
            el('button', { type: 'button', className: 'edit', 'aria-label': `Edit ${it.name}`, textContent: 'Edit', onclick: () => editBehavior(it) }),
            el('button', { type: 'button', className: 'remove', 'aria-label': `Remove ${it.name}`, textContent: 'Remove', onclick: () => removeBehavior(it) }))),
        el('td', {},
          el('label', { className: 'sr-only', for: id, textContent: `Activation of ${it.name}` }),
          el('input', { type: 'range', id, min: 0, max: 1, step: 0.01 }),
          el('output', { for: id })),
        el('td', { className: 'tier', dataset: { k: 'tier' } }),
        el('td', { className: 'n', dataset: { k: 'tokens' } }));
      const range = tr.querySelector('input');
      const out = tr.querySelector('output');
      range.value = it.activation;
      out.textContent = it.activation.toFixed(2);
      range.addEventListener('input', () => {
        it.activation = range.valueAsNumber;
        out.textContent = it.activation.toFixed(2);
        refreshPlanSoon();
      });
      return tr;
    }),
  );
}

// ---- behaviours: add, edit, remove ----------------------------------------

const editor = $('#behavior-form');
let editing = null; // the behaviour in the editor; null: a new one

function editBehavior(it) {
  editing = it;
  const f = editor.elements;
  f['b-name'].value = it?.name ?? '';
  f['b-kind'].value = it?.kind ?? 'directive';
  f['b-tags'].value = it?.tags.join(', ') ?? '';
  f['b-activation'].value = it?.activation ?? 0.5;
  f['b-content'].value = it?.content ?? '';
  f['b-summary'].value = it?.summary ?? '';
  $('#h-editor').textContent = it ? `Edit ${it.name}` : 'A new behavior';
  markField(editor, null);
  editor.hidden = false;
  f['b-name'].focus();
}

function removeBehavior(it) {
  const i = state.behaviors.indexOf(it);
  state.behaviors.splice(i, 1);
  if (editing === it) editor.hidden = true;
  drawBehaviors();
  const rows = $('#plan-items tbody').rows;
  (rows[Math.min(i, rows.length - 1)]?.querySelector('button.edit') ?? $('#add-behavior')).focus();
  refreshPlanSoon();
}

editor.addEventListener('submit', (e) => {
  e.preventDefault();
  const f = editor.elements;
  const name = f['b-name'].value.trim();
  const activation = f['b-activation'].valueAsNumber;
  if (!name) return markField(editor, f['b-name'], 'A name, please');
  if (!(activation >= 0 && activation <= 1)) return markField(editor, f['b-activation'], 'From 0 to 1');
  const it = editing ?? { id: uniqueId(name) };
  Object.assign(it, {
    name,
    kind: f['b-kind'].value,
    tags: f['b-tags'].value.split(',').map((t) => t.trim().replace(/^#/, '')).filter(Boolean),
    activation,
    content: f['b-content'].value,
  });
  const summary = f['b-summary'].value.trim();
  if (summary) it.summary = summary;
  else delete it.summary;
  if (!editing) state.behaviors.push(it);
  editor.hidden = true;
  drawBehaviors();
  $(`#plan-items tr[data-id="${CSS.escape(it.id)}"] button.edit`).focus();
  refreshPlanSoon();
});
function cancelEdit() {
  editor.hidden = true;
  (editing ? $(`#plan-items tr[data-id="${CSS.escape(editing.id)}"] button.edit`) : $('#add-behavior'))?.focus();
}
$('#cancel-behavior').addEventListener('click', cancelEdit);
editor.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') {
    e.preventDefault();
    cancelEdit();
  }
});
$('#add-behavior').addEventListener('click', () => editBehavior(null));

function uniqueId(name) {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'behavior';
  let id = base;
  for (let n = 2; state.behaviors.some((b) => b.id === id); n++) id = `${base}-${n}`;
  return id;
}

function planRequest() {
  const b = numberField('#plan-budget');
  return { model: state.model, budget: b ?? 0, items: state.behaviors };
}

let planSeq = 0;
async function refreshPlan() {
  const seq = ++planSeq;
  const section = $('#plan-budget').closest('section');
  let req;
  let p;
  try {
    req = structuredClone(planRequest());
    p = await jobs('plan', req);
  } catch (e) {
    if (seq !== planSeq) return;
    // Nothing stale: clear the results, say what is wrong where it is.
    markField(section, e.input ?? (e.field && $(FIELDS[e.field] ?? '#none')), fieldMessage(e));
    const s = $('#plan-summary');
    s.className = 'alert level-critical';
    s.textContent = `Cannot plan: ${e.message}`;
    for (const id of ['#demotions', '#reasons']) $(id).replaceChildren();
    $('#plan-text').textContent = '';
    for (const td of document.querySelectorAll('#plan-items .tier, #plan-items .n')) td.textContent = '';
    demo.plan = { request: req, error: { code: e.code, field: e.field } };
    return;
  }
  if (seq !== planSeq) return;
  markField(section, null);
  const byId = new Map(state.behaviors.map((it) => [it.id, it]));
  for (const pi of p.items) {
    const tr = $(`#plan-items tr[data-id="${CSS.escape(pi.id)}"]`);
    if (!tr) continue;
    const tier = tr.querySelector('.tier');
    tier.textContent = TIER[pi.tier];
    tier.className = `tier t-${pi.tier}`;
    tier.dataset.tier = pi.tier;
    tr.querySelector('.n').textContent = pi.tokens ? num.format(pi.tokens) : '—';
    tr.querySelector('.n').dataset.tokens = pi.tokens;
  }
  const s = $('#plan-summary');
  s.dataset.total = p.totalTokens;
  s.className = `alert ${p.overBudget ? 'level-critical' : 'level-none'}`;
  s.textContent =
    `${num.format(p.totalTokens)} tokens of ${p.budget ? num.format(p.budget) : 'no limit'}` +
    ` · ${p.demotions.length} demotion${p.demotions.length === 1 ? '' : 's'}` +
    (p.overBudget ? ' · over budget: the constraints alone exceed it' : '');
  $('#demotions').replaceChildren(
    ...(p.demotions.length
      ? p.demotions.map((d) => {
          const li = document.createElement('li');
          li.textContent = `${byId.get(d.id)?.name ?? d.id}: ${TIER[d.from]} → ${TIER[d.to]}`;
          return li;
        })
      : [Object.assign(document.createElement('li'), { textContent: 'None: everything fits at its activation tier.' })]),
  );
  $('#reasons').replaceChildren(
    ...p.items.map((pi) => {
      const li = document.createElement('li');
      const b = document.createElement('b');
      b.textContent = `${byId.get(pi.id)?.name ?? pi.id} — ${TIER[pi.tier]}: `;
      li.append(b, pi.reason);
      return li;
    }),
  );
  $('#plan-text').textContent = p.text || '(nothing injected)';
  showJSON('plan-request', req);
  showJSON('plan-answer', p);
  demo.plan = { request: req, answer: p };
}

$('#plan-budget').addEventListener('input', () => refreshPlanSoon());
$('#sample-behaviors').addEventListener('click', () => {
  state.behaviors = structuredClone(samples.behaviors);
  editor.hidden = true;
  drawBehaviors();
  refreshPlanSoon();
});

// ---- chat request -----------------------------------------------------------

const chatBox = $('#chat-request');
chatBox.value = JSON.stringify(samples.chatRequest, null, 2);
let chatSeq = 0;

async function refreshChat() {
  const seq = ++chatSeq;
  const section = chatBox.closest('section');
  let req;
  let a;
  try {
    try {
      req = JSON.parse(chatBox.value);
    } catch (e) {
      throw Object.assign(new Error(`not JSON: ${e.message}`), { code: 'invalid_request', input: chatBox });
    }
    a = await jobs('chat', req);
  } catch (e) {
    if (seq !== chatSeq) return;
    markField(section, chatBox, e.message.replace(/^tokenfit: /, ''));
    const s = $('#chat-summary');
    s.className = 'alert level-critical';
    s.textContent = `Cannot count the request: ${e.message}`;
    $('#chat-table tbody').replaceChildren();
    $('#chat-notes').replaceChildren();
    showJSON('chat-answer', { error: { code: e.code, message: e.message, field: e.field } });
    demo.chat = { request: req, error: { code: e.code, field: e.field } };
    return;
  }
  if (seq !== chatSeq) return;
  markField(section, null);
  const s = $('#chat-summary');
  s.className = 'alert level-none';
  s.dataset.total = a.total;
  s.dataset.shape = a.shape;
  s.textContent = `${num.format(a.total)} prompt tokens` + (a.exact ? ', exact' : `, up to ${num.format(a.upperBound)}: not exact (${a.encoding}, rules ${a.rules})`) +
    ` · read as ${SHAPE_NAMES[a.shape] ?? a.shape}`;
  const row = (k, v, key) => el('tr', {}, el('th', { scope: 'row', textContent: k }), el('td', { textContent: v, dataset: { k: key } }));
  // perMessage follows the request's own messages (Gemini: contents); a
  // top-level system prompt (Anthropic, Gemini, AI SDK) is counted apart.
  const msgs = (a.shape === 'gemini' ? req.contents : req.messages) ?? [];
  $('#chat-table tbody').replaceChildren(
    ...(a.system !== undefined ? [row('System prompt', num.format(a.system), 'system')] : []),
    ...a.perMessage.map((n, i) => row(`Message ${i + 1} (${msgs[i]?.role ?? '?'}${msgs[i]?.tool_calls ? ', tool calls' : ''})`, num.format(n), `message-${i}`)),
    row('Tool definitions', num.format(a.tools), 'tools'),
    row('Tool choice', num.format(a.toolChoice), 'toolChoice'),
    row('Reply priming', num.format(a.priming), 'priming'),
    row('Total', num.format(a.total), 'total'),
    row('Upper bound', num.format(a.upperBound), 'upperBound'),
  );
  $('#chat-notes').replaceChildren(...(a.notes ?? []).map((n) => el('li', { textContent: n })));
  showJSON('chat-answer', a);
  demo.chat = { request: req, answer: a };
}

chatBox.addEventListener('input', () => refreshChatSoon());

const SHAPE_NAMES = { openai: 'an OpenAI request', anthropic: 'an Anthropic Messages request', gemini: 'a Gemini generateContent request', aisdk: 'AI SDK ModelMessages' };
for (const b of document.querySelectorAll('button.shape')) {
  b.addEventListener('click', () => {
    chatBox.value = JSON.stringify(samples.chatRequests[b.dataset.shape], null, 2);
    refreshChatSoon();
  });
}

// ---- refresh scheduling ---------------------------------------------------

const refreshBudgetSoon = debounce(refreshBudget, 120);
const refreshPlanSoon = debounce(refreshPlan, 80);
const refreshChatSoon = debounce(refreshChat, 150);
// Text changes redraw the token view, the estimate and the budget together,
// once typing pauses. Each of them reads the whole text, so a long text
// waits for a longer pause: a 1 MB encode between two keystrokes would
// compete with the next one for the machine (the live count does not wait).
const refreshText = debounce(
  async () => {
    await Promise.all([refreshTokens(), refreshEstimate(), refreshBudget()]);
  },
  () => (state.text.length > 100_000 ? 800 : 150),
);

function refreshAll() {
  refreshText();
  refreshPlanSoon();
  refreshChatSoon();
}

$('#model').addEventListener('change', () => changeModel().catch(fail));

// ---- start ----------------------------------------------------------------

async function start() {
  // The first visit's phases, in ms since navigation (performance.now()):
  // the test prints them (test-results/first-visit.json).
  const at = demo.startup;
  at.script = performance.now();
  for (const [k, v] of Object.entries(samples.sections)) $(`#sec-${k}`).value = v;
  drawHistory();
  drawBehaviors();
  if (!composer.value) composer.value = samples.firstText; // a reload may keep the text
  // The model's facts come from the registry build.mjs took: on screen
  // before any module has started.
  fillModels();
  showModel();
  $('#version').textContent = registry.version;
  // The first count: the lean module (index.html preloads it and the
  // table), started from the memory image an earlier visit saved when there
  // is one (the table is then loaded already).
  const files = await prepare(at);
  live.tf = await open({ module: files.module, encodings: files.encodings, savedImage: true });
  at.instance = performance.now();
  at.table = performance.now();
  // Typing before now changed only the composer: count what it holds.
  state.text = composer.value;
  const r = await openCounter(state.model, state.text);
  demo.ready = true;
  showCount(r.tokens, r.encoding);
  at.count = performance.now();
  $('#status').textContent = `Ready: tokenfit ${registry.version}, the first count ${num.format(Math.round(at.count))} ms after the page opened.`;
  document.documentElement.dataset.ready = 'true';
  // Typed while the count was made: send the difference.
  if (composer.value !== state.text) textChanged(performance.now(), performance.now(), 'type');
  nextFrame().then(() => {
    at.painted = performance.now();
  });
  refreshTokens().catch(fail);
  await jobsWorker('open', files);
  jobsOpen();
  refreshAll();
}

start().catch(fail);
