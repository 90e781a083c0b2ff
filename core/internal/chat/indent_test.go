package chat

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestIndentedSize: indentedSize measures what appendIndented prints, on
// hand-written cases and on random JSON values (nested containers, empty
// ones, strings holding brackets, commas, quotes and escapes) as
// appendPyJSON prints them.
func TestIndentedSize(t *testing.T) {
	cases := []string{`{}`, `[]`, `1`, `"a"`, `{"a": []}`, `[{}, [], [[]]]`, `{"a, b": "[{,}]", "c\"": "\\\\", "d": "\u00e9\n"}`,
		`[[[[1, 2], [3]]], {"x": {"y": {"z": null}}}]`}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		cases = append(cases, randomJSON(rng, 0))
	}
	tr := &templateRender{}
	for _, raw := range cases {
		compact := string(tr.appendPyJSON(nil, []byte(raw)))
		want := len(appendIndented(nil, []byte(compact), 0))
		if got := indentedSize(compact); got != want {
			t.Fatalf("indentedSize(%s) = %d, appendIndented prints %d bytes:\n%s", compact, got, want, appendIndented(nil, []byte(compact), 0))
		}
	}
}

func randomJSON(rng *rand.Rand, depth int) string {
	k := rng.IntN(6)
	if depth > 6 {
		k = rng.IntN(3)
	}
	switch k {
	case 0:
		return strconv.Itoa(rng.IntN(1000) - 500)
	case 1:
		pieces := []string{"a", ",", ", ", "[", "]", "{", "}", `\"`, `\\`, `\n`, `\u0001`, ": ", "é"}
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return `"` + b.String() + `"`
	case 2:
		return []string{"true", "false", "null"}[rng.IntN(3)]
	case 3, 4:
		var parts []string
		for range rng.IntN(4) {
			parts = append(parts, randomJSON(rng, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		var parts []string
		for i := range rng.IntN(4) {
			parts = append(parts, `"k`+strconv.Itoa(i)+`": `+randomJSON(rng, depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}
