package hf

import (
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
)

// TestNFC compares nfc with Node's String.prototype.normalize("NFC"), the
// normalizer tokenizers.js runs, on random text weighted toward marks.
func TestNFC(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node missing")
	}
	rng := rand.New(rand.NewPCG(3, 15))
	var texts []string
	for range 3000 {
		s := randtext.Text(rng, 60)
		// more marks, jamo and composites
		for range 3 {
			s += string([]rune{0x300 + rune(rng.IntN(0x70)), 0x1100 + rune(rng.IntN(0x100)), 0xAC00 + rune(rng.IntN(11172)), 0x1E00 + rune(rng.IntN(0x100)), 0x0B3E, 0x0F71 + rune(rng.IntN(16))}[rng.IntN(6)])
		}
		texts = append(texts, randtext.Comparable(s))
	}
	texts = append(texts, strings.Join(texts[:500], ""), strings.Join(texts[500:1000], "\u0301")) // many segments in one text
	texts = append(texts, "e\u0301", "\u1100\u1161\u11a8", "\uac00\u11a8", "a\u0328\u0301", "\u0344", "\u212b", "\u0b47\u0b3e", "Å\u0301")
	cmd := exec.Command(node, "-e", `const l=require('fs').readFileSync(0,'utf8').split('\u0000');process.stdout.write(l.map(s=>s.normalize('NFC')).join('\u0000'))`)
	cmd.Stdin = strings.NewReader(strings.Join(texts, "\x00"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(string(out), "\x00")
	bad := 0
	for i, s := range texts {
		if got := nfc(s); got != want[i] {
			bad++
			if bad <= 5 {
				t.Errorf("nfc(%+q) = %+q, want %+q", s, got, want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(texts))
	}
	if s := "plain text, 漢字 ok"; nfc(s) != s {
		t.Error("stable text changed")
	}
}
