// Command benchtable reads `go test -bench` output on stdin and prints one
// ratio table per benchmark: each sub-benchmark's time per operation,
// throughput, and its time as a multiple of the first sub-benchmark's (the
// baseline: native core, or a cold start). Then issue 15's goals for the
// wazero host, each with its value and whether it is met.
//
//	go test ./host -run '^$' -bench . | go run ./host/internal/benchtable
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// goals are the targets that these benchmarks measure: a time at
// most max (ns), or a metric the sub-benchmark reports (a ratio measured
// in pairs, see BenchmarkThroughput) at least min.
var goals = []struct {
	what, group, sub, metric string
	max, min                 float64
}{
	{what: "host.New, full module, warm disk cache", group: "Start", sub: "new-disk-cache", max: 50e6},
	{what: "a second process to its first count, host.NewConfig()", group: "Start", sub: "second-process-default-config", max: 300e6},
	{what: "wazero throughput / native (alternating)", group: "Throughput", sub: "alternating", metric: "wasm/native", min: 1.0 / 3},
}

type result struct {
	sub     string
	ns      float64
	mbps    string
	metrics map[string]float64
}

var line = regexp.MustCompile(`^Benchmark([^/\s]+)/(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)

func main() {
	var order []string
	groups := map[string][]result{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, _ := strconv.ParseFloat(m[3], 64)
		r := result{sub: m[2], ns: ns, metrics: map[string]float64{}}
		fields := strings.Fields(m[4])
		for i := 1; i < len(fields); i++ {
			if fields[i] == "MB/s" {
				r.mbps = fields[i-1]
			} else if v, err := strconv.ParseFloat(fields[i-1], 64); err == nil {
				r.metrics[fields[i]] = v
			}
		}
		if _, ok := groups[m[1]]; !ok {
			order = append(order, m[1])
		}
		groups[m[1]] = append(groups[m[1]], r)
	}
	for _, g := range order {
		rs := groups[g]
		fmt.Printf("\n%s (ratios: time / %s's time)\n", g, rs[0].sub)
		fmt.Printf("  %-34s %12s %10s %10s\n", "", "time/op", "MB/s", "ratio")
		for _, r := range rs {
			fmt.Printf("  %-34s %12s %10s %9.2fx\n", r.sub, human(r.ns), r.mbps, r.ns/rs[0].ns)
		}
	}
	find := func(group, sub string) (result, bool) {
		for _, r := range groups[group] {
			if r.sub == sub {
				return r, true
			}
		}
		return result{}, false
	}
	for _, g := range goals {
		r, ok := find(g.group, g.sub)
		if !ok {
			continue
		}
		value, target, met := human(r.ns), "≤ "+human(g.max), r.ns <= g.max
		if g.metric != "" {
			v, ok := r.metrics[g.metric]
			if !ok {
				continue
			}
			value, target, met = fmt.Sprintf("%.3f", v), fmt.Sprintf("≥ %.3f", g.min), v >= g.min
		}
		verdict := "MISSED"
		if met {
			verdict = "met"
		}
		fmt.Printf("\n%-42s %10s  %-9s %s", g.what, value, target, verdict)
	}
	fmt.Println()
}

// human writes nanoseconds with a unit.
func human(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.1f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
