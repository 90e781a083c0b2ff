// The hostile cases of testdata/hostile, judged in JavaScript by the rules
// internal/hostile (hostile.go) judges them in Go: this file is their one JS
// port, and every JS host runs it (Node, Deno, Bun, workerd, Chromium). It
// needs no runtime's own API. The format is testdata/hostile/README.md;
// JS-only cases (values JSON cannot write) are in hostile-js.mjs, run after
// the file's and judged here too.
//
// A case runs through the package's public API: an operation through
// tf.call(op, request) (a request given as JSON data is passed as the
// object, a body as the string), the fast path "count" through
// tf.countTokens(text, { encoding }), a JS-only case through its run(tf).
// A TokenfitError is the error answer {"error": {code, message, field}};
// any other exception fails the case.
import { ENCODINGS } from '../dist/esm/index.js';
import { jsCases } from './hostile-js.mjs';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // a BOM in a body must stay

// ---- expectations -------------------------------------------------------------

/**
 * parseExpect reads a case's expectation: "ok", "error:<code>", or an
 * object the answer must contain. Throws on anything else (hostile.go's
 * parseExpect).
 */
export function parseExpect(raw) {
  if (typeof raw === 'string') {
    if (raw === 'ok') return { ok: true };
    if (raw.startsWith('error:') && raw.length > 6) return { code: raw.slice(6) };
    throw new Error(`expect ${JSON.stringify(raw)}: want "ok", "error:<code>" or an object`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`expect ${JSON.stringify(raw)}: want "ok", "error:<code>" or an object`);
  }
  return { subset: raw };
}

const show = (v, n = 300) => {
  let s;
  try {
    s = JSON.stringify(v);
  } catch {
    s = String(v);
  }
  return s === undefined ? String(v) : s.length > n ? s.slice(0, n) + '…' : s;
};

/**
 * contains returns why got does not hold want, or null: objects by their
 * keys, arrays element by element and of the same length, numbers by value,
 * all else whole (hostile.go's contains).
 */
export function contains(got, want, path = 'answer') {
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${path}: want ${show(want)}, got ${show(got)}`;
    for (let i = 0; i < want.length; i++) {
      const e = contains(got[i], want[i], `${path}[${i}]`);
      if (e) return e;
    }
    return null;
  }
  if (want !== null && typeof want === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) return `${path}: want an object, got ${show(got)}`;
    for (const k of Object.keys(want)) {
      if (!Object.prototype.hasOwnProperty.call(got, k)) return `${path}.${k}: missing`;
      const e = contains(got[k], want[k], `${path}.${k}`);
      if (e) return e;
    }
    return null;
  }
  if (typeof want === 'number') {
    if (typeof got !== 'number' || (got !== want && !(Number.isNaN(got) && Number.isNaN(want)))) return `${path}: want ${want}, got ${show(got)}`;
    return null;
  }
  return got === want ? null : `${path}: want ${show(want)}, got ${show(got)}`;
}

/**
 * check judges an answer (an object: core's answer, an error answer, or
 * {tokens} of a fast-path count) against an expectation as written in a
 * case file. Returns why it fails, or null. An internal error always fails.
 */
export function check(expect, answer) {
  const e = parseExpect(expect);
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return `answer ${show(answer)} is not one JSON object`;
  const err = answer.error !== null && typeof answer.error === 'object' ? answer.error : null;
  if (e.ok) {
    if (err) return `want an answer, got error ${err.code}: ${err.message}`;
  } else if (e.code) {
    if (!err) return `want error ${e.code}, got answer ${show(answer)}`;
    if (err.code !== e.code) return `want error ${e.code}, got ${err.code}: ${err.message}`;
    if (typeof err.message !== 'string' || err.message === '') return `error ${e.code} without a message`;
  } else {
    const why = contains(answer, e.subset);
    if (why) return `${why} (answer ${show(answer, 400)})`;
  }
  if (err && err.code === 'internal') return `internal error: ${err.message}`;
  return null;
}

// ---- bodies ---------------------------------------------------------------------

function hexBytes(hex) {
  const h = hex.replaceAll(' ', '');
  const b = new Uint8Array(h.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return b;
}

// A part's repetitions at a scale (hostile.go's Part.times).
function times(p, scale) {
  const t = Math.max(p.times || 1, 1);
  return t > 1 ? Math.max(Math.floor(t / scale), 1) : t;
}

/**
 * body returns what a case sends: the request object (a case given as
 * JSON data), or the body as a string. Binary bodies (not valid UTF-8)
 * cannot be a JavaScript string: null. scale divides the repetitions of a
 * huge case's parts (1: full size).
 */
export function body(c, scale = 1) {
  if (c.binary) return null;
  if (c.body !== undefined) return c.body;
  if (c.gen !== undefined) {
    const s = c.huge ? scale : 1;
    let out = '';
    for (const p of c.gen) {
      const unit = p.hex !== undefined ? decoder.decode(hexBytes(p.hex)) : p.s;
      out += unit.repeat(times(p, s));
    }
    return out;
  }
  return c.request;
}

// ---- answers --------------------------------------------------------------------

/** errorAnswer is the error answer a TokenfitError came from. */
export function errorAnswer(e) {
  const error = { code: e.code, message: e.message };
  if (e.field) error.field = e.field;
  return { error };
}

// answerOf runs fn and returns its answer, a TokenfitError as its error
// answer; any other exception is returned as { thrown }.
function answerOf(fn) {
  try {
    return fn();
  } catch (e) {
    if (e && e.name === 'TokenfitError' && typeof e.code === 'string') return errorAnswer(e);
    return { thrown: `${e && e.name}: ${e && e.message}` };
  }
}

/** ask answers one case's request through the public API. */
export function ask(tf, c, b) {
  if (c.run) return answerOf(() => c.run(tf));
  if (c.op === 'count') {
    return answerOf(() => ({ tokens: tf.countTokens(b, { encoding: c.encoding }) }));
  }
  return answerOf(() => tf.call(c.op, b));
}

// The fast path of the JS package is countTokens, which names encodings as
// the JSON countTokens does: "" is the default encoding and a heuristic
// such as chars4 counts (full module); the raw count export of the Go hosts
// takes only the four encoding names (the CLI's tests leave such cases
// out). For a fast-path case with any other name the JS answer must be the
// JSON countTokens answer instead (judged by sameAsJSON below).
const judgedAsJSON = (c) => c.op === 'count' && !ENCODINGS.includes(c.encoding);

/**
 * probe asks the file's probe on both paths and returns why it failed, or
 * null: the instance still answers correctly.
 */
export function probe(tf, p) {
  if (tf.module !== 'lite') {
    const why = check(p.expect, answerOf(() => tf.call(p.op, p.request)));
    if (why) return `probe: ${why}`;
  }
  const n = answerOf(() => tf.countTokens(p.count.text, { encoding: p.count.encoding }));
  if (n !== p.count.tokens) return `probe count: ${show(n)}, want ${p.count.tokens}`;
  return null;
}

/**
 * setup runs the file's setup calls on a fresh instance (the live counters
 * with ids 1 and 2 that live cases use).
 */
export function setup(tf, file) {
  if (tf.module === 'lite') return;
  file.setup.forEach((s, i) => {
    const a = answerOf(() => tf.call(s.op, s.request));
    if (a.error || a.thrown || a.id !== i + 1) throw new Error(`hostile setup ${s.op}: ${show(a)} (want id ${i + 1}: run on a fresh instance)`);
  });
}

// skipReason says why a module skips a case, or null: a binary body (not
// a JavaScript string), or an operation the lean module does not have (it
// runs the fast-path cases and the JS-only cases marked lite).
function skipReason(c, module) {
  if (c.binary) return 'binary';
  if (module === 'lite' && !(c.run ? c.lite : c.op === 'count')) return 'lite';
  return null;
}

/**
 * tally counts, without running them, the cases runCases runs on a module
 * ('wasip1', 'lite' or 'js') and those it skips: what a host's report must
 * say.
 */
export function tally(file, module) {
  const out = { ran: 0, js: 0, skipped: { binary: 0, lite: 0 } };
  for (const c of [...file.cases, ...jsCases]) {
    const why = skipReason(c, module);
    if (why) out.skipped[why]++;
    else {
      out.ran++;
      if (c.run) out.js++;
    }
  }
  return out;
}

/**
 * runCases runs a case file, then the JS-only cases, on an instance made
 * fresh for it (setup already run, see setup), the way the Go hosts do:
 * each case's answer is judged, a sameAs body must answer the same, and the
 * probe must pass right after. The lean module runs the fast-path cases
 * only.
 *
 * options: scale (default file.scale: huge cases divided; 1 for full size),
 * fresh (async () => a new instance with setup run, for each huge case at
 * full size; default: the same instance), log (a line per huge case).
 *
 * Returns { module, ran, js (of ran, the JS-only), skipped: { binary, lite },
 * probes (passed), scale, failures: [string] }.
 */
export async function runCases(tf, file, { scale = file.scale || 1, fresh, log } = {}) {
  const failures = [];
  const skipped = { binary: 0, lite: 0 };
  let ran = 0;
  let js = 0;
  let probes = 0;
  for (const c of [...file.cases, ...jsCases]) {
    const skip = skipReason(c, tf.module);
    if (skip) {
      skipped[skip]++;
      continue;
    }
    let t = tf;
    if (c.huge && scale === 1 && fresh) t = await fresh();
    let b = body(c, scale);
    const t0 = Date.now();
    const got = ask(t, c, b);
    if (c.huge && log) log(`${c.name}: ${typeof b === 'string' ? (b.length / 1048576).toFixed(1) + 'M units' : ''}, ${Date.now() - t0} ms, memory ${(t.memoryBytes() / 1048576).toFixed(0)} MB`);
    ran++;
    if (c.run) js++;
    let why = got.thrown ? `threw ${got.thrown}` : null;
    if (!why && judgedAsJSON(c)) {
      why = sameAsJSON(t, c, b, got);
    } else if (!why) {
      why = check(c.expect, got);
    }
    if (!why && c.sameAs !== undefined) {
      const same = c.run ? answerOf(() => c.sameAs(t)) : ask(t, c, c.sameAs);
      if (show(same, Infinity) !== show(got, Infinity)) why = `answers ${show(got)}\nbut the same request ${c.run ? 'written otherwise' : 'without the member'} ${show(same)}`;
    }
    if (why) failures.push(`${c.name}: ${why}`);
    b = null; // a huge body can go before the probe
    const p = probe(t, file.probe);
    if (p) {
      failures.push(`after ${c.name}: ${p}`);
      break; // the instance is broken: later answers say nothing
    }
    probes++;
  }
  return { module: tf.module, ran, js, skipped, probes, scale, failures };
}

// sameAsJSON: the typed countTokens must answer what the JSON countTokens
// answers for the same text and encoding. The lean module has no JSON
// path; there "" is the default encoding too, and any other name must be
// one of the four.
function sameAsJSON(tf, c, b, got) {
  if (tf.module === 'lite') {
    if (c.encoding !== '') return check('error:unknown_encoding', got);
    const n = answerOf(() => tf.countTokens(b));
    return show(got) === show({ tokens: n }) ? null : `countTokens ${show(got)}, with the default encoding ${show(n)}`;
  }
  const a = answerOf(() => tf.call('countTokens', { text: b, encoding: c.encoding }));
  const want = a.error ? a : { tokens: a.tokens };
  return show(got) === show(want) ? null : `countTokens ${show(got)}, the JSON countTokens ${show(want)}`;
}

/**
 * verdict returns what is wrong with a host's runCases result, or []:
 * failures, cases it did not run that it should have (tally), a probe
 * that did not pass.
 */
export function verdict(result, file) {
  const want = tally(file, result.module);
  const wrong = [...result.failures];
  if (result.ran !== want.ran || result.js !== want.js) wrong.push(`ran ${result.ran} cases (${result.js} JS-only), want ${want.ran} (${want.js})`);
  if (show(result.skipped) !== show(want.skipped)) wrong.push(`skipped ${show(result.skipped)}, want ${show(want.skipped)}`);
  if (result.probes !== result.ran) wrong.push(`${result.probes} probes passed after ${result.ran} cases`);
  return wrong;
}

/** summary is a host's result in one line, for its test's report. */
export function summary(r) {
  const size = r.scale === 1 ? 'huge cases at full size' : `huge cases scaled down ${r.scale}×`;
  return `${r.module}: ${r.ran} hostile cases run (${r.ran - r.js} from testdata/hostile, ${r.js} JS-only), ` +
    `${r.skipped.binary + r.skipped.lite} skipped (${r.skipped.binary} binary, ${r.skipped.lite} not in the lean module), ` +
    `${size}; ${r.failures.length} failures, ${r.probes} probes passed`;
}
