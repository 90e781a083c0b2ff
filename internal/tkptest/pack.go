// Package tkptest writes a vocabulary table (.tkt) in the transport form
// (.tkp, core/internal/tables' Expand reads it) for the tests of the
// packages that load one: tables, core/engine and the modules. The package
// writes its .tkp files with js/scripts/pack-tables.mjs, which picks the
// split BPE made (it gzips best); any split into two earlier tokens expands
// to the same table, and this one takes the first.
package tkptest

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Pack returns the .tkp form of a version 1 .tkt table.
func Pack(tkt []byte) ([]byte, error) {
	if len(tkt) < 24 || string(tkt[:4]) != "TKFT" || tkt[4] != 1 {
		return nil, errors.New("tkptest: not a version 1 .tkt table")
	}
	h := 24 + int(tkt[6])
	n := int(binary.LittleEndian.Uint32(tkt[8:]))
	b := int(binary.LittleEndian.Uint32(tkt[20:]))
	if h+n+b > len(tkt) {
		return nil, errors.New("tkptest: truncated table")
	}
	lens, body := tkt[h:h+n], tkt[h+n:h+n+b]
	rank := map[string]int{}
	kinds := make([]byte, n)
	var singles []byte
	var left, right []int
	off := 0
	for r, l := range lens {
		tok := string(body[off : off+int(l)])
		off += int(l)
		switch l {
		case 0:
			continue
		case 1:
			kinds[r] = 1
			singles = append(singles, tok[0])
		default:
			found := false
			for i := 1; i < len(tok) && !found; i++ {
				a, okA := rank[tok[:i]]
				c, okC := rank[tok[i:]]
				if found = okA && okC; found {
					kinds[r] = 2
					left, right = append(left, a), append(right, c)
				}
			}
			if !found {
				return nil, fmt.Errorf("tkptest: rank %d is not two earlier tokens joined", r)
			}
		}
		if _, ok := rank[tok]; !ok {
			rank[tok] = r
		}
	}
	planes := func(xs []int) []byte {
		out := make([]byte, 3*len(xs))
		for i, x := range xs {
			out[i], out[len(xs)+i], out[2*len(xs)+i] = byte(x), byte(x>>8), byte(x>>16)
		}
		return out
	}
	out := binary.LittleEndian.AppendUint32([]byte("TKFP"), uint32(h))
	out = append(out, tkt[:h]...)
	out = append(out, kinds...)
	out = append(out, singles...)
	out = append(out, planes(left)...)
	out = append(out, planes(right)...)
	return append(out, tkt[h+n+b:]...), nil
}
