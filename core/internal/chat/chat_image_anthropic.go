package chat

import "math"

// Claude's image tokens (testdata/billed/constants.md §1.5, Anthropic's
// vision page as of 2026-07-30): one token per 28×28-pixel patch,
// ⌈w/28⌉ × ⌈h/28⌉, after the image is scaled down, keeping its aspect
// ratio, to the largest size whose long edge (rounded up to a multiple of
// 28) and token count both fit the model's tier: 1568 px and 1568 tokens,
// or 2576 px and 4784 tokens for the high-resolution models (Opus 4.7 and
// later). Anthropic's reference finds that size by bisection on the long
// edge and rounds the short edge half to even; the published table (200×200
// → 64, 1000×1000 → 1296, 1920×1080 → 1560 or 2691, 2000×1500 → 1564 or
// 3888, 3840×2160 → 1560 or 4784) holds it (TestAnthropicImage_Table).

// anthropicTier is an image tier's limits.
type anthropicTier struct{ edge, tokens int }

var (
	tierStandard = anthropicTier{edge: 1568, tokens: 1568}
	tierHighRes  = anthropicTier{edge: 2576, tokens: 4784}
)

// anthropicImageTokens is a w×h image's tokens in a tier. Cost: O(log w).
func anthropicImageTokens(w, h int, t anthropicTier) int {
	long, short := max(w, h), min(w, h)
	if short <= 0 {
		return t.tokens
	}
	patches := func(n int) int { return (n + 27) / 28 }
	fits := func(l int) (int, bool) {
		s := max(1, int(math.RoundToEven(float64(short)*float64(l)/float64(long))))
		n := patches(l) * patches(s)
		return n, patches(l)*28 <= t.edge && n <= t.tokens
	}
	if n, ok := fits(long); ok {
		return n
	}
	lo, hi := 1, long // fits(lo) holds (one patch), fits(hi) does not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if _, ok := fits(mid); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	n, _ := fits(lo)
	return n
}

// image is one image part's tokens; an image whose size cannot be read
// counts at the tier's largest cost.
func (c *anthropicCounter) image(img *ImageURL) int {
	tier := tierStandard
	if c.rules.HighRes {
		tier = tierHighRes
	}
	c.note("image tokens follow Anthropic's documented patch formula (28-px patches, resized to the model's tier)")
	w, h := img.Width, img.Height
	if w <= 0 || h <= 0 {
		w, h = dataURLSize(img.URL)
	}
	if w <= 0 || h <= 0 {
		c.note("an image's size is unknown (not a PNG, JPEG, GIF or WebP data URL, and no width and height): counted at its largest cost")
		return tier.tokens
	}
	return anthropicImageTokens(w, h, tier)
}
