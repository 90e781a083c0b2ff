// Package jsonio reads and writes JSON without reflection, for core's
// request decoding and answer encoding.
//
// The reader slices values out of the text instead of copying them: a value
// is found by its bounds (ValueEnd), objects and arrays are walked member by
// member (Object, Array), and strings are decoded only when they are read
// (Unquote). Strings are skipped with bytes.IndexByte, so a 5 MB data URL
// six levels deep is scanned once per level, never copied. The reader
// expects text that Valid accepted; on anything else it returns ErrSyntax or
// stops early, and it never reads out of bounds.
//
// The writer appends to a byte slice, escaping strings and formatting
// numbers byte for byte as encoding/json does with SetEscapeHTML(false), so
// that answers stay the same bytes they were.
package jsonio
