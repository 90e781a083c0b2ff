// The token view's pages: the tokens of a text from index `from` to about
// `to`, as groups to show. Usually one token each, but the tokens that only
// make whole characters together (an emoji's UTF-8 split across tokens) or
// whole graphemes together (a family emoji joined by ZWJ) form one group,
// shown once. A page ends at a group boundary, so `next` may pass `to`.
// The jobs worker makes them for long texts, the page itself for short ones.

// joins says whether b's first grapheme continues a's last (a ZWJ, a
// combining mark, a variation selector, a skin tone...).
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
function joins(a, b) {
  if (!a || !b) return false;
  const lastA = [...graphemes.segment(a.slice(-16))].at(-1).segment;
  const first = graphemes.segment(lastA + b.slice(0, 16))[Symbol.iterator]().next().value.segment;
  return first.length > lastA.length;
}

// tokenGroups returns a function (tf, encoding, text, from, to) →
// { encoding, total, groups: [{ ids, text }], next }, which keeps the last
// text's ids (for the next page) and each token's text.
export function tokenGroups() {
  const pieces = new Map(); // encoding -> Map(id -> text of that one token)
  let encoded = { key: '', text: '', ids: [] }; // the last encode, for paging
  return (tf, encoding, text, from, to) => {
    if (encoded.key !== encoding || encoded.text !== text) {
      encoded = { key: encoding, text, ids: tf.encode(text, { encoding }) };
    }
    let cache = pieces.get(encoding);
    if (!cache) pieces.set(encoding, (cache = new Map()));
    const piece = (id) => {
      let s = cache.get(id);
      if (s === undefined) cache.set(id, (s = tf.decode([id], { encoding })));
      return s;
    };
    const ids = encoded.ids;
    const groups = [];
    let i = from;
    while (i < ids.length && (i < to || joins(groups.at(-1)?.text ?? '', piece(ids[i])))) {
      // Whole characters: extend while the bytes so far end mid-character.
      let j = i + 1;
      let t = piece(ids[i]);
      if (t.includes('\uFFFD')) {
        for (let k = j + 1; k <= Math.min(ids.length, i + 8); k++) {
          const u = tf.decode(ids.slice(i, k), { encoding });
          if (!u.includes('\uFFFD')) {
            [j, t] = [k, u];
            break;
          }
        }
      }
      const g = { ids: ids.slice(i, j), text: t };
      // Whole graphemes: join the previous group when a grapheme spans them.
      const last = groups.at(-1);
      if (last && last.ids.length + g.ids.length <= 16 && joins(last.text, g.text)) {
        last.ids.push(...g.ids);
        last.text += g.text;
      } else groups.push(g);
      i = j;
    }
    return { encoding, total: ids.length, groups, next: i };
  };
}
