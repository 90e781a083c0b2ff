// The live counter: an exact count kept up to date while a text is edited
// (index.d.ts, LiveCounter), over an instance's operations (full.js,
// lean.js). Released when garbage-collected, or at once by dispose().

import { TokenfitError } from './errors.js';
import { checkCount, checkString } from './args.js';

const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((release) => release())
  : null;

/**
 * textEdit returns the edit { at, del, ins } that turns a into b, in UTF-16
 * offsets, or null when they are equal. A text area reports only its new
 * value, so the edit is the longest common prefix and suffix. `caret`, where
 * the inserted text ends in b (a text area's selectionEnd after the input),
 * lets a keystroke in a 1 MB text compare a few characters plus two native
 * string comparisons instead of a million characters one by one: the edit
 * starts at or before caret minus the growth, and ends caret from b's end.
 * A wrong caret only costs the slow path. Offsets never fall inside a
 * surrogate pair. O(edit) with a right caret, O(n) without.
 * @param {string} a
 * @param {string} b
 * @param {number} [caret]
 */
export function textEdit(a, b, caret = b.length) {
  if (a === b) return null;
  const n = Math.min(a.length, b.length);
  let p = Math.max(0, Math.min(caret - Math.max(0, b.length - a.length), n));
  if (p > 0 && a.slice(0, p) !== b.slice(0, p)) p = 0;
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;

  const room = n - p; // the suffix may not overlap the prefix
  let s = Math.max(0, Math.min(b.length - caret, room));
  if (s > 0 && a.slice(a.length - s) !== b.slice(b.length - s)) s = 0;
  while (s < room && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;

  // Keep surrogate pairs whole: a prefix may not end after a high
  // surrogate, a suffix may not start with a low one.
  if (p > 0 && (a.charCodeAt(p - 1) & 0xfc00) === 0xd800) p--;
  if (s > 0 && (a.charCodeAt(a.length - s) & 0xfc00) === 0xdc00) s--;
  return { at: p, del: a.length - p - s, ins: b.slice(p, b.length - s) };
}

/**
 * liveCounter makes a counter of text for target.
 * @param ops the instance's operations (full.js, lean.js)
 * @param {(fn: () => any) => any} guard the instance's guard
 * @param {() => boolean} gone whether the instance has failed
 */
export function liveCounter(ops, guard, gone, target, text) {
  const { id, encoding, tokens: first } = ops.liveNew(target, text);
  let tokens = first;
  let live = true;
  let shadow = text; // the text as update() last saw it, when known
  const release = () => {
    if (gone()) return;
    try {
      ops.liveFree(id);
    } catch {
      // the instance is gone; so is the counter
    }
  };
  const token = {};
  const alive = (fn) => {
    if (!live) throw new TokenfitError('invalid_handle', `tokenfit: liveCounter.${fn}: this counter was disposed: make a new one with tf.liveCounter()`);
  };
  function edit(at, deleteCount = 0, insert = '') {
    return guard(() => {
      alive('edit');
      checkCount('liveCounter.edit', 'at', at);
      checkCount('liveCounter.edit', 'deleteCount', deleteCount);
      checkString('liveCounter.edit', 'insert', insert);
      shadow = undefined;
      tokens = ops.liveEdit(id, at, deleteCount, insert);
      return tokens;
    });
  }
  function reset(newText) {
    return guard(() => {
      alive('reset');
      checkString('liveCounter.reset', 'text', newText);
      tokens = ops.liveReset(id, newText);
      shadow = newText;
      return tokens;
    });
  }
  function getText() {
    return guard(() => {
      alive('text');
      return ops.liveText(id);
    });
  }
  function update(newText, caret) {
    return guard(() => {
      alive('update');
      checkString('liveCounter.update', 'text', newText);
      if (caret !== undefined) checkCount('liveCounter.update', 'caret', caret);
      const ed = textEdit(shadow !== undefined ? shadow : getText(), newText, caret);
      if (ed) edit(ed.at, ed.del, ed.ins);
      shadow = newText;
      return tokens;
    });
  }
  function dispose() {
    if (!live) return;
    live = false;
    if (registry) registry.unregister(token);
    release();
  }
  const counter = {
    encoding,
    edit,
    update,
    reset,
    text: getText,
    count: () => {
      alive('count');
      return tokens;
    },
    dispose,
  };
  if (typeof Symbol.dispose === 'symbol') counter[Symbol.dispose] = dispose;
  if (registry) registry.register(counter, release, token);
  return Object.freeze(counter);
}
