package chat

import (
	"testing"
)

// TestAnthropicImage_Table: Anthropic's published sizes and token counts
// for both tiers (vision page, 2026-07-30).
func TestAnthropicImage_Table(t *testing.T) {
	for _, tc := range []struct {
		w, h           int
		standard, high int
	}{
		{200, 200, 64, 64},
		{1000, 1000, 1296, 1296},
		{1092, 1092, 1521, 1521},
		{1920, 1080, 1560, 2691},
		{2000, 1500, 1564, 3888},
		{3840, 2160, 1560, 4784},
		{1080, 1920, 1560, 2691}, // tall: the axes swap
	} {
		if got := anthropicImageTokens(tc.w, tc.h, tierStandard); got != tc.standard {
			t.Errorf("%dx%d standard: %d, want %d", tc.w, tc.h, got, tc.standard)
		}
		if got := anthropicImageTokens(tc.w, tc.h, tierHighRes); got != tc.high {
			t.Errorf("%dx%d high-res: %d, want %d", tc.w, tc.h, got, tc.high)
		}
	}
}
