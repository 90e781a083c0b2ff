package bpe

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

func TestPieceCache_Keys(t *testing.T) {
	var c pieceCache
	c.put("abc", 0, 2)
	if _, ok := c.get("abc", 0); ok {
		t.Fatal("a hit in a cache without a table")
	}
	c.allocate()
	if _, ok := c.get("abc", 0); ok {
		t.Fatal("a hit in an empty cache")
	}
	for n := 1; n <= maxCachedLen+1; n++ {
		key := strings.Repeat("x", n-1) + "y"
		c.put(key, 0, n)
		got, ok := c.get(key, 0)
		if n > maxCachedLen {
			if ok {
				t.Fatalf("a %d-byte key was cached, the limit is %d", n, maxCachedLen)
			}
			continue
		}
		if !ok || got != n {
			t.Fatalf("get(%d bytes) = %d, %v after put %d", n, got, ok, n)
		}
		// Same slot (same hash given), other bytes: a miss, never a count.
		h := hash(key)
		for _, other := range []string{key[:n-1] + "z", key + "y", key[1:]} {
			if got, ok := c.get(other, h); ok {
				t.Fatalf("get(%q) with %q's slot = %d", other, key, got)
			}
		}
	}
}

// TestPieceCache_Concurrent: goroutines counting many distinct merged
// pieces, short and long, at once (enough to share slots, so that they overwrite each
// other's entries) always get the merge's count. With -race (make test-race) it
// also checks that the cache shares its words safely.
func TestPieceCache_Concurrent(t *testing.T) {
	tab, err := tables.Parse(tables.Embedded("cl100k_base"), true)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(tab, false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(15, 1))
	const letters = "qxzjkvwyhgfbp"
	words := make([]string, 1<<14)
	want := make([]int, len(words))
	for i := range words {
		// Every eighth word is long enough for the cache's long entries.
		n := 4 + rng.IntN(30)
		if i%8 == 0 {
			n = 8*keyWords + 1 + rng.IntN(maxCachedLen-8*keyWords)
		}
		var b strings.Builder
		for range n {
			b.WriteByte(letters[rng.IntN(len(letters))])
		}
		words[i] = b.String()
		want[i] = len(e.AppendEncode(nil, words[i])) // merges without the cache
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range len(words) {
				i := (k*(2*g+1) + g) % len(words)
				if n := e.CountPiece(words[i]); n != want[i] {
					t.Errorf("CountPiece(%q) = %d, want %d", words[i], n, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPieceCache_CountPaths holds the counting paths that answer without a
// merge to the merge: 3-byte pieces counted from their pairs, and pieces
// longer than keyBytes, whole tokens or not, counted a first time (cache
// filled) and again (cache hit).
func TestPieceCache_CountPaths(t *testing.T) {
	var alphabet []byte
	for b := 0; b < 256; b++ {
		if b < 0x80 && (b%7 == 0 || b >= 'a' && b <= 'z') || b >= 0x80 && b%13 == 0 {
			alphabet = append(alphabet, byte(b))
		}
	}
	for _, e := range loadEncoders(t) {
		for _, a := range alphabet {
			for _, b := range alphabet {
				for _, c := range alphabet {
					p := string([]byte{a, b, c})
					if got, want := e.CountPiece(p), len(e.appendRanks(nil, p)); got != want {
						t.Fatalf("%s: CountPiece(%q) = %d, the merge gives %d", e.Name, p, got, want)
					}
				}
			}
		}
		var long []string
		for r := range len(e.off) - 1 {
			if tok := e.token(uint32(r)); len(tok) > keyBytes {
				long = append(long, tok, tok+"q", "x"+tok)
			}
		}
		for pass := range 2 {
			for _, p := range long {
				if got, want := e.CountPiece(p), len(e.appendRanks(nil, p)); got != want {
					t.Fatalf("%s, pass %d: CountPiece(%q) = %d, the merge gives %d", e.Name, pass, p, got, want)
				}
			}
		}
	}
}
