// diff finds the live counter's edit from a text area's old and new value.
// Random texts (with surrogate pairs), random edits, right and wrong hints:
// applying the edit must give the new text, and no offset may split a pair.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diff } from '../src/diff.js';

const alphabet = ['a', 'b', ' ', '\n', 'é', '東', '😀', '🎉', '\uD83D\uDE00'];

function rand(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

const splitsPair = (s, i) => i > 0 && i < s.length && /[\uD800-\uDBFF]/.test(s[i - 1]) && /[\uDC00-\uDFFF]/.test(s[i]);

test('diff: applying the edit gives the new text, never splitting a surrogate pair', () => {
  const r = rand(42);
  const word = (n) => Array.from({ length: n }, () => alphabet[r(alphabet.length)]).join('');
  for (let i = 0; i < 20000; i++) {
    const a = word(r(30));
    // A well-formed edit: cut at code point boundaries.
    const cps = Array.from(a);
    const at = r(cps.length + 1);
    const del = r(cps.length - at + 1);
    const ins = word(r(4));
    const b = cps.slice(0, at).join('') + ins + cps.slice(at + del).join('');
    const caret = cps.slice(0, at).join('').length + ins.length;
    const hint = [caret - Math.max(0, b.length - a.length), r(a.length + 1), 0][i % 3];
    const ed = diff(a, b, hint, [caret, r(b.length + 1)][i % 2]);
    if (a === b) {
      assert.equal(ed, null);
      continue;
    }
    assert.equal(a.slice(0, ed.at) + ed.ins + a.slice(ed.at + ed.del), b, JSON.stringify({ a, b, ed }));
    assert.ok(!splitsPair(a, ed.at) && !splitsPair(a, ed.at + ed.del), JSON.stringify({ a, b, ed }));
  }
});

test('diff: a keystroke in a 1 MB text is found from the hints', () => {
  const a = 'x'.repeat(1 << 20);
  const b = a.slice(0, 500000) + 'y' + a.slice(500000);
  assert.deepEqual(diff(a, b, 500000, 500001), { at: 500000, del: 0, ins: 'y' });
  assert.deepEqual(diff(b, a, 500000, 500000), { at: 500000, del: 1, ins: '' });
});
