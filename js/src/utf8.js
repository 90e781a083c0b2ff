// The UTF-8 form of JavaScript strings (what TextEncoder writes: a lone
// surrogate becomes U+FFFD): its length, and parts of a string whose UTF-8
// is that part of the whole string's.

const encoder = new TextEncoder();
const PART = 1 << 18; // UTF-16 units a measure encodes at a time

/**
 * partEnd is where a part of s that starts at i and has at most n units
 * ends: never between the halves of a surrogate pair.
 * @param {string} s
 * @param {number} i
 * @param {number} n
 */
export function partEnd(s, i, n) {
  const j = Math.min(i + n, s.length);
  return j < s.length && (s.charCodeAt(j - 1) & 0xfc00) === 0xd800 ? j - 1 : j;
}

/**
 * utf8Length returns the length of s in UTF-8, or a length above max as
 * soon as it is known to be more: encodeInto measures it a part at a time,
 * several times faster than a loop over its units.
 * @param {string} s
 * @param {number} max
 */
export function utf8Length(s, max) {
  if (s.length > max) return s.length; // a unit is at least a byte
  const scratch = new Uint8Array(3 * Math.min(s.length, PART));
  let n = 0;
  for (let i = 0; i < s.length && n <= max;) {
    const j = partEnd(s, i, PART);
    n += encoder.encodeInto(s.substring(i, j), scratch).written;
    i = j;
  }
  return n;
}
