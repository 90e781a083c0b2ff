package core

import "math"

// Price is what a model costs, in US dollars per million tokens, with
// where the price list comes from and its date.
type Price struct {
	Input float64 `json:"input"`
	// CachedInput is the price of input read from the provider's prompt
	// cache (0: the provider names none; cached input costs Input).
	CachedInput float64 `json:"cachedInput,omitempty"`
	// CacheWrite is the price of input written to the cache, where the
	// provider charges it apart (Anthropic).
	CacheWrite float64 `json:"cacheWrite,omitempty"`
	Output     float64 `json:"output"`
	Source     string  `json:"source,omitempty"`
	Date       string  `json:"date,omitempty"`
}

func (p *Price) check(field string) error {
	if p == nil {
		return nil
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"input", p.Input}, {"cachedInput", p.CachedInput}, {"cacheWrite", p.CacheWrite}, {"output", p.Output}} {
		if !(v.x >= 0 && v.x < 1e6) || math.IsInf(v.x, 0) {
			return fieldErr(field+"."+v.name, "must be a price in USD per million tokens, 0 or more")
		}
	}
	return nil
}
