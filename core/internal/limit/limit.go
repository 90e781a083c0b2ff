// Package limit holds the size budget that core and core/internal/chat
// share: the slack every budget allows and the error of a request over its
// budget (core's limits.go states the budgets; API.md, "Limits").
package limit

import (
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/format"
)

// GrowthSlack is what every budget allows beyond its growth factor times
// the request's bytes (core.GrowthSlack).
const GrowthSlack = 1 << 20

// TooLarge is the error of a request whose what would need need bytes,
// over its budget.
func TooLarge(what string, need, budget int) error {
	return format.Errorf("%w: %s would take at least %d bytes, over the %d this request's size allows (API.md, Limits): send less in one request", engine.ErrTooLarge, what, need, budget)
}
