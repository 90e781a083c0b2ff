// Package docs has no code: its tests hold the repository's documents to
// their form. RATIONALE.md stays a book of decisions (at most 100 KB, no
// commit hashes, load figures or issue and stop numbers: those belong to
// commit messages and docs/perf/), README.md within 16 KB and TESTING.md
// within 20 KB, every relative link of the top-level documents and
// docs/perf/ names a file that exists, and every citation of an entry
// elsewhere in the repository (`RATIONALE.md, "Why …?"`) names an entry
// that exists. make check runs them.
package docs
