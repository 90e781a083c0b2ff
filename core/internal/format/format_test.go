package format

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

type stringer int

func (s stringer) String() string { return fmt.Sprint("stringer ", int(s)) }

// TestSprintf_AsFmt holds every verb and kind the package prints to fmt's
// output.
func TestSprintf_AsFmt(t *testing.T) {
	err := errors.New("an error")
	values := []any{"", "text", "quote \" and \\ and \n and \x00 and é and \xff", err,
		stringer(3), 0, -1, 42, int8(-8), int16(16), int32(-32), int64(math.MinInt64), uint(7), uint8(8),
		uint16(16), uint32(32), uint64(math.MaxUint64), 0.0, 1.0, 0.5, -0.25, 1e6, 1e20, 1e21, 123456789.0,
		1e-4, 1e-5, 0.1 + 0.2, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1),
		math.NaN(), float32(0.1), true, false}
	verbs := map[string]func(any) bool{
		"%s": func(v any) bool { _, ok := Text(v); return ok },
		"%v": func(any) bool { return true },
		"%q": func(v any) bool { _, ok := Text(v); return ok },
		"%d": func(v any) bool {
			switch v.(type) {
			case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
				return true
			}
			return false
		},
		"%g": func(v any) bool {
			switch v.(type) {
			case float32, float64:
				return true
			}
			return false
		},
	}
	for verb, ok := range verbs {
		for _, v := range values {
			if !ok(v) {
				continue
			}
			f := "a " + verb + " b %% c"
			if got, want := Sprintf(f, v), fmt.Sprintf(f, v); got != want {
				t.Errorf("Sprintf(%q, %#v) = %q, fmt says %q", f, v, got, want)
			}
		}
	}
	if got, want := Sprintf("%s and %d", "x", 3), "x and 3"; got != want {
		t.Errorf("two arguments: %q, want %q", got, want)
	}
	if got := Sprintf("%d", "x"); got != "%!d(unsupported)" {
		t.Errorf("wrong verb: %q", got)
	}
	if got := Sprintf("%v", struct{}{}); got != "%!v(unsupported)" {
		t.Errorf("unsupported kind: %q", got)
	}
	if got := Sprintf("%d %d", 1); got != "1 %!d(MISSING)" {
		t.Errorf("missing: %q", got)
	}
	if got := Sprintf("%d", 1, 2); got != "1%!(EXTRA)" {
		t.Errorf("extra: %q", got)
	}
	if got := Sprintf("trailing %"); got != "trailing %" {
		t.Errorf("trailing %%: %q", got)
	}
}

func TestErrorf_Wraps(t *testing.T) {
	base := errors.New("base")
	err := Errorf("%w: %q at %d", base, "x", 3)
	want := fmt.Errorf("%w: %q at %d", base, "x", 3)
	if err.Error() != want.Error() {
		t.Errorf("Errorf = %q, fmt says %q", err, want)
	}
	if !errors.Is(err, base) {
		t.Error("Errorf does not wrap its %w")
	}
	if plain := Errorf("no %s", "wrap"); errors.Unwrap(plain) != nil || plain.Error() != "no wrap" {
		t.Errorf("Errorf without %%w: %q wraps %v", plain, errors.Unwrap(plain))
	}
}
