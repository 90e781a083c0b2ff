package bpe

// The three ways to read a piece's tokens. Every piece is first looked up
// whole: most pieces of prose and code are a single token.

// count returns the number of tokens in piece p.
func (v *Vocab) count(p string) int {
	if len(p) > 2 {
		return v.countLong(p)
	}
	return v.countShort(p)
}

// countShort is count for a piece of one or two bytes: one byte is one
// token, two are one if pair2 has them, else two. Most pieces are this
// short (a space, a newline, punctuation), and the counting loops call it
// inline: a call would cost more than the answer.
func (v *Vocab) countShort(p string) int {
	if len(p) == 2 && v.pair2[int(p[0])<<8|int(p[1])] == 0 {
		return 2
	}
	return 1
}

// countLong is count for a piece of 3 bytes or more.
func (v *Vocab) countLong(p string) int {
	if len(p) > keyBytes {
		return v.countLonger(p)
	}
	if len(p) >= cachedFirst {
		return v.countCachedFirst(p)
	}
	if r, h := v.rankHash(p); r == noRank {
		return v.merged(p, h)
	}
	return 1
}

// countLonger is count for a piece longer than keyBytes. It asks the piece
// cache first, which holds such pieces whole tokens or not: most of them
// are rare words that need a merge, and a look-up of one reads a slot that
// is seldom in the processor's cache (and, for a token, the token's bytes).
func (v *Vocab) countLonger(p string) int {
	h := hash(p)
	if n, ok := v.pieces.get(p, h); ok {
		return n
	}
	n := 1
	if v.rankOfLong(p, h) == noRank {
		n = v.merge(p)
	}
	v.pieces.put(p, h, n)
	return n
}

// merged returns the number of tokens of a piece of 3 to keyBytes bytes
// that is not a whole token, whose hash is h.
func (v *Vocab) merged(p string, h uint64) int {
	if len(p) == 3 {
		// If either of its pairs is a token, that pair merges and the
		// two tokens left would only join into p: two tokens, else three.
		return 3 - b2i(v.pair2[int(p[0])<<8|int(p[1])]|v.pair2[int(p[1])<<8|int(p[2])] != 0)
	}
	if n, ok := v.pieces.get(p, h); ok {
		return n
	}
	n := v.merge(p)
	v.pieces.put(p, h, n)
	return n
}

// merge returns the number of tokens of a piece that is not a whole token.
func (v *Vocab) merge(p string) int {
	if len(p) <= smallPiece {
		var buf [smallPiece + 1]part
		return len(v.splitSmall(p, &buf)) - 1
	}
	n := 0
	v.eachToken(p, func(string) { n++ })
	return n
}

// splitLong merges a long piece and hands the resulting token list (from 0,
// each token i ends at next[i]) to use.
func (v *Vocab) splitLong(p string, use func(next []int32)) {
	b := v.getBuckets()
	defer v.putBuckets(b)
	if v.splitBuckets(p, b) {
		use(b.next)
		return
	}
	m := bigPool.Get().(*bigMerge)
	defer bigPool.Put(m)
	v.splitBig(p, m)
	use(m.next)
}

// appendRanks appends the ranks of piece p's tokens to dst.
func (v *Vocab) appendRanks(dst []uint32, p string) []uint32 {
	if r := v.rank(p); r != noRank {
		return append(dst, r)
	}
	if len(p) <= smallPiece {
		var buf [smallPiece + 1]part
		parts := v.splitSmall(p, &buf)
		for i := 0; i+1 < len(parts); i++ {
			dst = append(dst, v.rank(p[parts[i].start:parts[i+1].start]))
		}
		return dst
	}
	v.eachToken(p, func(tok string) { dst = append(dst, v.rank(tok)) })
	return dst
}

// cachedFirst is the length from which a piece of up to keyBytes bytes asks
// the piece cache's tiny part before the look-up.
const cachedFirst = 5

// countCachedFirst is count for a piece of cachedFirst to keyBytes bytes.
// Whole tokens or not, such pieces are counted from the piece cache's tiny
// part, the look-up and the merge filling it on a miss: the 1 MiB benchmark
// corpus has 15K distinct ones, 240 KB of tiny entries, four to a cache
// line, where in the look-up table each takes a line of its own (1 MB of
// them, as much as the processor's L2). Shorter pieces are the commonest
// tokens, whose slots stay cached anyway. The hash and key are rankHash's,
// computed the same way from the same loads (hash's and keyOf's values),
// so that a hit costs what a look-up does, and the rest is a call in tail
// position.
func (v *Vocab) countCachedFirst(s string) int {
	n := len(s)
	var h, lo, hi, t uint64
	if n < 8 {
		a, b := uint64(le32(s)), uint64(le32(s[n-4:]))
		t, lo = a<<32|b, a|b<<(8*(n-4))
		h = uint64(n) * k0
	} else {
		lo = le64(s)
		h = (uint64(n)*k0 ^ lo*k1) * k2
		h ^= h >> 29
		switch r := s[8:]; len(r) {
		case 4:
			a := uint64(le32(r))
			t, hi = a<<32|a, a
		case 3, 2, 1:
			t = uint64(r[0])<<16 | uint64(r[len(r)>>1])<<8 | uint64(r[len(r)-1])
			hi = uint64(le32(s[n-4:])) >> (8 * (keyBytes - n))
		}
	}
	h = (h ^ t*k1) * k2
	h ^= h >> 32
	h *= k0
	h ^= h >> 29
	hi |= uint64(n) << 32
	if tab := v.pieces.table.Load(); tab != nil {
		i, j := wayPair(h, tinyBits)
		if c, ok := matchTiny(tab.tiny[2*i:2*i+2], lo, hi); ok {
			return c
		}
		if c, ok := matchTiny(tab.tiny[2*j:2*j+2], lo, hi); ok {
			return c
		}
	}
	return v.countUncached(s, h)
}

// countUncached is countCachedFirst for a piece the cache does not hold.
func (v *Vocab) countUncached(s string, h uint64) int {
	c := 1
	if r, _ := v.rankHash(s); r == noRank {
		c = v.merge(s)
	}
	v.pieces.put(s, h, c)
	return c
}
