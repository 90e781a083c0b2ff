package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tokenfit/tokenfit/core"
)

// CallAs runs op with req (a value marshalled to JSON, or the JSON itself as
// []byte or json.RawMessage) and decodes the answer into an A. It serves the
// operations without a method of their own, such as countChat and
// planInjection:
//
//	ans, err := host.CallAs[core.ChatAnswer](ctx, h, "countChat", req)
func CallAs[A any](ctx context.Context, h *Host, op string, req any) (A, error) {
	var ans A
	var body []byte
	switch r := req.(type) {
	case []byte:
		body = r
	case json.RawMessage:
		body = r
	default:
		b, err := json.Marshal(req)
		if err != nil {
			return ans, fmt.Errorf("%w: %v", core.ErrInvalidRequest, err)
		}
		body = b
	}
	out, err := h.Do(ctx, op, body)
	if err != nil {
		return ans, err
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		return ans, fmt.Errorf("%w: decoding the %s answer: %v", core.ErrInternal, op, err)
	}
	return ans, nil
}

// CountTokens is core.Registry.CountTokens in the module.
func (h *Host) CountTokens(ctx context.Context, req core.CountRequest) (core.CountAnswer, error) {
	return CallAs[core.CountAnswer](ctx, h, "countTokens", req)
}

// Encode is core.Registry.Encode in the module.
func (h *Host) Encode(ctx context.Context, req core.CountRequest) (core.EncodeAnswer, error) {
	return CallAs[core.EncodeAnswer](ctx, h, "encode", req)
}

// Decode is core.Registry.Decode in the module.
func (h *Host) Decode(ctx context.Context, req core.DecodeRequest) (core.DecodeAnswer, error) {
	return CallAs[core.DecodeAnswer](ctx, h, "decode", req)
}

// WithinLimit is core.Registry.WithinLimit in the module. A text longer
// than a few megabytes counted with a built-in encoding (named, or a
// model's) is streamed into the instance and the writing stops once the
// count passes the limit, so the cost is in proportion to the text the
// limit covers, not to the whole text (the answer is the same).
func (h *Host) WithinLimit(ctx context.Context, req core.LimitRequest) (core.LimitAnswer, error) {
	if len(req.Text) <= streamMin || req.Limit < 0 {
		return CallAs[core.LimitAnswer](ctx, h, "withinLimit", req)
	}
	text := req.Text
	req.Text = ""
	return h.withinLimit(ctx, req, strings.NewReader(text), func() (string, error) { return text, nil })
}

// Truncate is core.Registry.Truncate in the module.
func (h *Host) Truncate(ctx context.Context, req core.TruncateRequest) (core.TruncateAnswer, error) {
	return CallAs[core.TruncateAnswer](ctx, h, "truncate", req)
}

// CalculateBudget is core.CalculateBudget in the module, over the module's
// registry (the built-in models and any registered through Call).
func (h *Host) CalculateBudget(ctx context.Context, req core.BudgetRequest) (core.Budget, error) {
	return CallAs[core.Budget](ctx, h, "calculateBudget", req)
}

// Version returns the module's core.Version.
func (h *Host) Version(ctx context.Context) (string, error) {
	v, err := CallAs[core.VersionAnswer](ctx, h, "version", nil)
	return v.Version, err
}
