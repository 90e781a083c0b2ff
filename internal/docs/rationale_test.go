package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's top directory.
const root = "../.."

// budgets are the sizes the documents a newcomer reads first must stay
// within: RATIONALE.md about wazero's, for a smaller project; README.md
// what a user needs first (numbers live in BENCHMARKS.md); TESTING.md
// tables, not prose.
var budgets = []struct {
	name, how string
	max       int
}{
	{"RATIONALE.md", "keep each entry to its decision and move the investigation to docs/perf/<topic>.md", 100 << 10},
	{"README.md", "keep what a user needs first; details go to API.md, js/README.md or wasm/ABI.md", 16 << 10},
	{"TESTING.md", "keep it to tables; a test's details go in its doc comment", 20 << 10},
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDocs_Size(t *testing.T) {
	for _, b := range budgets {
		if n := len(read(t, b.name)); n > b.max {
			t.Errorf("%s is %d bytes, over its %d: %s", b.name, n, b.max, b.how)
		}
	}
}

// logMarks are what an investigation log writes and a decision does not.
var logMarks = []struct {
	what string
	re   *regexp.Regexp
}{
	{"a commit hash", regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)},
	{"a load figure", regexp.MustCompile(`(?i)\bload(?: average)?:? (?:of )?(?:~|about )?[0-9]`)},
	{"an issue or stop number", regexp.MustCompile(`(?i)\b(?:issues?|stops?) #?[0-9]+`)},
}

// TestRationale_Decisions: RATIONALE.md holds no commit hashes, load
// figures or issue numbers; they date an entry, and belong to its
// investigation in docs/perf/ or to a commit message.
func TestRationale_Decisions(t *testing.T) {
	for i, line := range strings.Split(read(t, "RATIONALE.md"), "\n") {
		for _, m := range logMarks {
			for _, s := range m.re.FindAllString(line, -1) {
				if m.what == "a commit hash" && !(strings.ContainsAny(s, "0123456789") && strings.ContainsAny(s, "abcdef")) {
					continue // a number, or a word
				}
				t.Errorf("RATIONALE.md:%d: %s (%q): move it to docs/perf/ or the commit message", i+1, m.what, s)
			}
		}
	}
}

func TestLogMarks(t *testing.T) {
	for _, tc := range []struct {
		line string
		bad  bool
	}{
		{"measured at 2479a8e on main", true},
		{"one run at load 20", true},
		{"load average 3.1", true},
		{"issue 15's goal", true},
		{"after stop 29", true},
		{"1000000 random strings", false},
		{"a decade of deadbeef", false},
		{"loads o200k_base at load time", false},
	} {
		bad := false
		for _, m := range logMarks {
			for _, s := range m.re.FindAllString(tc.line, -1) {
				if m.what != "a commit hash" || strings.ContainsAny(s, "0123456789") && strings.ContainsAny(s, "abcdef") {
					bad = true
				}
			}
		}
		if bad != tc.bad {
			t.Errorf("%q: flagged %v, want %v", tc.line, bad, tc.bad)
		}
	}
}

var linkRE = regexp.MustCompile(`\]\(([^)#\s]+)(?:#[^)]*)?\)`)

// TestDocs_Links: every relative link of the top-level documents and
// docs/perf/ names a file or directory of the repository.
func TestDocs_Links(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.md", "docs/perf/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRE.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, target)
			}
		}
	}
}

// citeRE finds a citation of an entry: RATIONALE.md, "Why …?" (or
// RATIONALE.md ("Why …"), RATIONALE.md, section "…"), once comment
// markers and line breaks are folded into spaces.
var (
	citeRE  = regexp.MustCompile(`RATIONALE(?:\.md)?\)?[,:]?\s*(?:\(|section\s+)?\s*["“]([^"”]{4,200})`)
	innerRE = regexp.MustCompile(`"((?:Why|Where|How|What)[^"]{3,150})"`)
	foldRE  = regexp.MustCompile(`\n\s*(?://|#|\*)?\s*`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// TestRationale_Cited: an entry cited anywhere in the repository (source
// comments, the Makefile, the other documents), and one entry cited by
// another, exists under that title: renaming an entry means changing its
// citations.
func TestRationale_Cited(t *testing.T) {
	var titles []string
	rationale := read(t, "RATIONALE.md")
	for _, line := range strings.Split(rationale, "\n") {
		if title, ok := strings.CutPrefix(line, "## "); ok {
			titles = append(titles, strings.TrimSpace(title))
		}
	}
	exists := func(cited string) bool {
		cited = spaceRE.ReplaceAllString(strings.TrimSpace(cited), " ")
		cited = strings.TrimSuffix(strings.TrimSuffix(cited, "?"), "…")
		cited = strings.TrimSuffix(strings.TrimSuffix(cited, "..."), "…")
		for _, title := range titles {
			if strings.HasPrefix(title, strings.TrimSpace(cited)) {
				return true
			}
		}
		return false
	}
	for _, m := range innerRE.FindAllStringSubmatch(spaceRE.ReplaceAllString(rationale, " "), -1) {
		if !exists(m[1]) {
			t.Errorf("RATIONALE.md cites %q, which is no entry's title", m[1])
		}
	}
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		t.Skip("git ls-files:", err)
	}
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "docs/perf/") || strings.HasPrefix(name, "internal/docs/") || name == "RATIONALE.md" {
			continue // logs cite entries as they were; this test names the form
		}
		switch filepath.Ext(name) {
		case ".go", ".md", ".mjs", ".js", ".ts", "":
		default:
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue // deleted in the working tree
		}
		for _, m := range citeRE.FindAllStringSubmatch(foldRE.ReplaceAllString(string(b), " "), -1) {
			if !exists(m[1]) {
				t.Errorf("%s cites RATIONALE.md, %q, which is no entry's title", name, m[1])
			}
		}
	}
}
