package wasm_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/engine"
)

// TestJSLiveBound_MirrorEngine holds the live-counter bound that the npm
// package's documentation states (index.d.ts, js/README.md) to the one the
// modules enforce, core/engine.MaxLiveCounters.
func TestJSLiveBound_MirrorEngine(t *testing.T) {
	for _, f := range []struct{ file, pattern string }{
		{"../js/src/index.d.ts", `keeps at most ([0-9,]+) live counters`},
		{"../js/README.md", `keeps at most\s+([0-9,]+) at once`},
	} {
		m := regexp.MustCompile(f.pattern).FindStringSubmatch(readFile(t, f.file))
		if m == nil {
			t.Errorf("%s does not state the live-counter bound (%s)", f.file, f.pattern)
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if err != nil || n != engine.MaxLiveCounters {
			t.Errorf("%s states %s live counters; core/engine.MaxLiveCounters is %d", f.file, m[1], engine.MaxLiveCounters)
		}
	}
}
