// The encodings and their tables: the names tokenfit knows, and the
// transport form (.tkp) a page downloads: the module expands it
// (load_packed); a module built before that export gets it expanded here.

import { TokenfitError } from './errors.js';

/** The encodings tokenfit knows, in the order core lists them. */
export const ENCODINGS = Object.freeze(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base']);

/** The encoding used when a call names none. */
export const DEFAULT_ENCODING = 'o200k_base';

/**
 * expandTable returns the .tkt bytes of a table given as .tkt (unchanged) or
 * in tokenfit's transport form .tkp (every token of two bytes or more as the
 * pair of earlier tokens it joins; see core/internal/tables/packed.go for
 * the format). The module checks the result against the digest it carries.
 * Modules with load_packed expand a .tkp themselves, Go's loops compiled
 * where this one starts in V8's interpreter (RATIONALE.md, "How are tables
 * loaded"); this serves modules built before it, and pack-tables.mjs's
 * check. Cost: O(table) (make bench-start times it).
 * @param {Uint8Array} b
 * @returns {Uint8Array}
 */
export function expandTable(b) {
  if (b.length < 8 || b[0] !== 0x54 || b[1] !== 0x4b || b[2] !== 0x46 || b[3] !== 0x50) return b; // not "TKFP"
  const bad = () => new TokenfitError('invalid_table', 'tokenfit: a .tkp table is truncated or corrupt: download it again');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const h = dv.getUint32(4, true);
  if (8 + h > b.length || h < 24) throw bad();
  const head = b.subarray(8, 8 + h);
  const hv = new DataView(head.buffer, head.byteOffset, h);
  const n = hv.getUint32(8, true);
  const total = hv.getUint32(20, true);
  let p = 8 + h;
  const kinds = b.subarray(p, p + n);
  p += n;
  let c1 = 0;
  let c2 = 0;
  for (let r = 0; r < n; r++) {
    if (kinds[r] === 1) c1++;
    else if (kinds[r] === 2) c2++;
  }
  const singles = b.subarray(p, p + c1);
  p += c1;
  const left = b.subarray(p, p + 3 * c2);
  p += 3 * c2;
  const right = b.subarray(p, p + 3 * c2);
  p += 3 * c2;
  if (p > b.length) throw bad();
  const specials = b.subarray(p);
  const out = new Uint8Array(h + n + total + specials.length);
  out.set(head, 0);
  const lens = out.subarray(h, h + n);
  const bytes = out.subarray(h + n, h + n + total);
  const off = new Uint32Array(n + 1);
  let w = 0;
  let i1 = 0;
  let i2 = 0;
  for (let r = 0; r < n; r++) {
    off[r] = w;
    const k = kinds[r];
    if (k === 1) {
      bytes[w++] = singles[i1++];
    } else if (k === 2) {
      const a = left[i2] | (left[c2 + i2] << 8) | (left[2 * c2 + i2] << 16);
      const c = right[i2] | (right[c2 + i2] << 8) | (right[2 * c2 + i2] << 16);
      i2++;
      if (a >= r || c >= r || w + lens[a] + lens[c] > total) throw bad();
      for (let j = off[a], e = j + lens[a]; j < e; j++) bytes[w++] = bytes[j];
      for (let j = off[c], e = j + lens[c]; j < e; j++) bytes[w++] = bytes[j];
    }
    lens[r] = w - off[r];
  }
  if (w !== total) throw bad();
  out.set(specials, h + n + total);
  return out;
}

// isPacked reports whether b starts as a .tkp does ("TKFP").
export function isPacked(b) {
  return b.length >= 8 && b[0] === 0x54 && b[1] === 0x4b && b[2] === 0x46 && b[3] === 0x50;
}

// tableName reads the encoding name in the header of a .tkt or a .tkp
// (which carries the .tkt's header verbatim at 8), unchecked (the module
// checks the whole table when it loads it): '' when the name is cut off,
// null when b is neither form.
export function tableName(b) {
  const at = isPacked(b) ? 8 : 0;
  if (b.length < at + 24 || b[at] !== 0x54 || b[at + 1] !== 0x4b || b[at + 2] !== 0x46 || b[at + 3] !== 0x54) return null;
  const k = b[at + 6];
  return b.length >= at + 24 + k ? String.fromCharCode(...b.subarray(at + 24, at + 24 + k)) : '';
}

