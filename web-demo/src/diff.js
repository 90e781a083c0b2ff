// diff returns the edit {at, del, ins} that turns string a into string b, in
// UTF-16 offsets as the live counter takes them, or null when they are equal.
//
// A text area reports only its new value, so the edit is found as the
// longest common prefix and suffix. `hint` (where the edit starts, such as
// the selection before it) and `caret` (where the inserted text ends, the
// selection after it) let a keystroke in a 1 MB text compare a few
// characters in JavaScript plus two native string comparisons, instead of a
// million characters one by one; a wrong hint only costs the slow path.
// Offsets never fall inside a surrogate pair.
export function diff(a, b, hint = 0, caret = b.length) {
  if (a === b) return null;
  const n = Math.min(a.length, b.length);
  let p = Math.max(0, Math.min(hint, n));
  if (p > 0 && a.slice(0, p) !== b.slice(0, p)) p = 0;
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;

  const room = n - p; // the suffix may not overlap the prefix
  let s = Math.max(0, Math.min(b.length - caret, room));
  if (s > 0 && a.slice(a.length - s) !== b.slice(b.length - s)) s = 0;
  while (s < room && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;

  // Keep surrogate pairs whole: a prefix may not end after a high
  // surrogate, a suffix may not start with a low one.
  if (p > 0 && isHigh(a.charCodeAt(p - 1))) p--;
  if (s > 0 && isLow(a.charCodeAt(a.length - s))) s--;
  return { at: p, del: a.length - p - s, ins: b.slice(p, b.length - s) };
}

const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;
