// The live counter's update(): the edit it finds from a text area's old and
// new value (textEdit, src/live.js), with the caret right, wrong or absent,
// and the counts it gives against full recounts in the full and the lean
// module. Random texts with surrogate pairs: applying the edit must give
// the new text, and no offset may split a pair.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'tokenfit';
import { textEdit } from '../src/live.js';

const alphabet = ['a', 'b', ' ', '\n', 'é', '東', '😀', '🎉', 'the', ' world'];

function rand(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

const splitsPair = (s, i) => i > 0 && i < s.length && /[\uD800-\uDBFF]/.test(s[i - 1]) && /[\uDC00-\uDFFF]/.test(s[i]);

// edits yields [a, b, caret] for random well-formed edits: the caret is
// right, anywhere, or absent in turn.
function* edits(seed, n) {
  const r = rand(seed);
  const word = (k) => Array.from({ length: k }, () => alphabet[r(alphabet.length)]).join('');
  let a = word(20);
  for (let i = 0; i < n; i++) {
    const cps = Array.from(a);
    const at = r(cps.length + 1);
    const del = r(Math.min(cps.length - at, 5) + 1);
    const ins = word(r(4));
    const b = cps.slice(0, at).join('') + ins + cps.slice(at + del).join('');
    const caret = cps.slice(0, at).join('').length + ins.length;
    yield [a, b, [caret, r(b.length + 2), undefined][i % 3]];
    a = b.length > 400 ? word(20) : b;
  }
}

test('textEdit: applying the edit gives the new text, never splitting a surrogate pair', () => {
  for (const [a, b, caret] of edits(42, 20000)) {
    const ed = textEdit(a, b, caret);
    if (a === b) {
      assert.equal(ed, null);
      continue;
    }
    assert.equal(a.slice(0, ed.at) + ed.ins + a.slice(ed.at + ed.del), b, JSON.stringify({ a, b, caret, ed }));
    assert.ok(!splitsPair(a, ed.at) && !splitsPair(a, ed.at + ed.del), JSON.stringify({ a, b, caret, ed }));
  }
});

test('textEdit: a keystroke in a 1 MB text is the one-character edit at the caret', () => {
  const a = 'x'.repeat(1 << 20);
  const b = a.slice(0, 500000) + 'y' + a.slice(500000);
  assert.deepEqual(textEdit(a, b, 500001), { at: 500000, del: 0, ins: 'y' });
  assert.deepEqual(textEdit(b, a, 500000), { at: 500000, del: 1, ins: '' });
});

for (const lite of [false, true]) {
  test(`liveCounter.update(text, caret) counts exactly, caret right, wrong or absent (${lite ? 'lean' : 'full'} module)`, async () => {
    const tf = await init(lite ? { lite: true } : undefined);
    for (const encoding of ['o200k_base', 'cl100k_base']) {
      let last = '';
      const lc = tf.liveCounter({ encoding }, last);
      for (const [a, b, caret] of edits(7, 600)) {
        if (a !== last) lc.reset(a);
        assert.equal(lc.update(b, caret), tf.countTokens(b, { encoding }), JSON.stringify({ a, b, caret }));
        last = b;
      }
      assert.equal(lc.text(), last);
      assert.throws(() => lc.update('x', -1), { code: 'invalid_argument' });
      lc.dispose();
    }
  });
}

for (const lite of [false, true]) {
  test(`undisposed live counters are bounded: past 1,024 an invalid_request, and disposing one makes room (${lite ? 'lean' : 'full'} module)`, async () => {
    const tf = await init(lite ? { lite: true, encodings: ['o200k_base'] } : { encodings: ['o200k_base'] });
    const before = tf.memoryBytes();
    const kept = [];
    let refused;
    for (let i = 0; i < 100000 && !refused; i++) {
      try {
        kept.push(tf.liveCounter(undefined, `text ${i}`));
      } catch (e) {
        refused = e;
      }
    }
    assert.equal(kept.length, 1024);
    assert.equal(refused.name, 'TokenfitError');
    assert.equal(refused.code, 'invalid_request');
    assert.ok(tf.memoryBytes() - before < 64 << 20, `memory grew ${tf.memoryBytes() - before} bytes`);
    kept.pop().dispose();
    assert.equal(tf.liveCounter(undefined, 'Hello world').count(), 2);
    assert.equal(tf.countTokens('Hello world'), 2);
    for (const c of kept) c.dispose();
  });
}
