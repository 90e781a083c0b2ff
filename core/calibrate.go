package core

import (
	"maps"
	"math"
	"slices"
)

// Calibration: estimates that learn from reported usage. After a request,
// the provider reports what it billed (usage.prompt_tokens, input_tokens).
// A Calibration keeps, per model, how those reports compare with tokenfit's
// estimates, and turns that into a correction factor and an error bound.
// The state is plain JSON that goes in and comes out, so a stateless edge
// function can carry it between calls.
//
// In log space, with ratio = reported / estimate for each pair:
//
//	factor = exp(mean log ratio)
//	bound  = exp(max log ratio − mean log ratio) − 1 + prior × 5 / (5 + n)
//
// The first term covers every recorded pair, so the calibrated upper bound
// never under-reserves on the data it has seen; the second is the
// registry's own bound fading as pairs arrive, so with few pairs the bound
// stays wide and it tightens as they accumulate.

// Calibration is the per-model state.
type Calibration struct {
	Models map[string]ModelCalibration `json:"models"`
}

// ModelCalibration summarizes a model's (estimate, reported) pairs.
type ModelCalibration struct {
	Pairs int `json:"pairs"`
	// SumLog, MinLog and MaxLog summarize log(reported / estimate).
	SumLog float64 `json:"sumLog"`
	MinLog float64 `json:"minLog"`
	MaxLog float64 `json:"maxLog"`
	// Factor and ErrorBound are derived; they are written for readers and
	// recomputed on every update.
	Factor     float64 `json:"factor"`
	ErrorBound float64 `json:"errorBound"`
}

// priorWeight is how many pairs the registry's bound counts as.
const priorWeight = 5

// maxLogRatio bounds |log(reported / estimate)|: a provider that bills more
// than 1,000 times the estimate (or less than a thousandth of it) is
// reporting on another request. Beyond it a factor could carry a count
// past what an int holds.
var maxLogRatio = math.Log(1000)

// add records one pair; prior is the uncalibrated error bound.
func (m *ModelCalibration) add(estimate, reported int, prior float64) {
	l := math.Log(float64(reported) / float64(estimate))
	if m.Pairs == 0 {
		*m = ModelCalibration{MinLog: l, MaxLog: l} // no pairs: nothing else counts
	}
	m.Pairs++
	m.SumLog += l
	m.MinLog = math.Min(m.MinLog, l)
	m.MaxLog = math.Max(m.MaxLog, l)
	m.derive(prior)
}

func (m *ModelCalibration) derive(prior float64) {
	if m.Pairs == 0 {
		m.Factor, m.ErrorBound = 1, prior
		return
	}
	mean := m.SumLog / float64(m.Pairs)
	m.Factor = round6(math.Exp(mean))
	m.ErrorBound = round6(math.Exp(m.MaxLog-mean) - 1 + prior*priorWeight/float64(priorWeight+m.Pairs))
}

func round6(x float64) float64 { return math.Ceil(x*1e6) / 1e6 }

// CalibrateRequest records reported usage for one request.
type CalibrateRequest struct {
	Calibration Calibration `json:"calibration,omitempty"`
	Model       string      `json:"model"`
	// Estimate is what tokenfit counted for the request (countTokens'
	// tokens or countChat's total).
	Estimate int `json:"estimate"`
	// Reported is what the provider billed.
	Reported int `json:"reported"`
}

// CalibrateAnswer is the updated state, and the model's calibration.
type CalibrateAnswer struct {
	Calibration Calibration      `json:"calibration"`
	Model       string           `json:"model"`
	Current     ModelCalibration `json:"current"`
}

// Calibrate adds one (estimate, reported) pair for a model. Pairs for exact
// models are accepted too (their factor stays near 1 and shows when a count
// drifts). Cost: O(models in the state).
func (r *Registry) Calibrate(req CalibrateRequest) (CalibrateAnswer, error) {
	switch {
	case req.Model == "":
		return CalibrateAnswer{}, fieldErr("model", "required")
	case req.Estimate <= 0:
		return CalibrateAnswer{}, fieldErr("estimate", "must be a positive count")
	case req.Reported <= 0:
		return CalibrateAnswer{}, fieldErr("reported", "must be a positive count")
	case math.Abs(math.Log(float64(req.Reported)/float64(req.Estimate))) > maxLogRatio:
		return CalibrateAnswer{}, fieldErr("reported", "must be within 1,000 times the estimate (%d), got %d", req.Estimate, req.Reported)
	}
	res, err := r.Resolve(req.Model)
	if err != nil {
		return CalibrateAnswer{}, err
	}
	state := Calibration{Models: map[string]ModelCalibration{}}
	for _, k := range slices.Sorted(maps.Keys(req.Calibration.Models)) { // the same error every time
		v := req.Calibration.Models[k]
		if err := v.check("calibration.models." + k); err != nil {
			return CalibrateAnswer{}, err
		}
		state.Models[k] = v
	}
	m := state.Models[res.Model.ID]
	m.add(req.Estimate, req.Reported, priorBound(res.Tokenizer))
	state.Models[res.Model.ID] = m
	return CalibrateAnswer{Calibration: state, Model: res.Model.ID, Current: m}, nil
}

func (m ModelCalibration) check(field string) error {
	// What add can write: logs within the ratio bound, their mean between
	// the least and the greatest, pairs that stay exact in JavaScript.
	const slack = 1e-9
	inRange := func(x float64) bool { return math.Abs(x) <= maxLogRatio+slack } // false for NaN
	if m.Pairs < 0 || m.Pairs >= maxSafeInt || !inRange(m.MinLog) || !inRange(m.MaxLog) || m.MinLog > m.MaxLog {
		return fieldErr(field, "not a calibration this API wrote")
	}
	if m.Pairs > 0 {
		mean := m.SumLog / float64(m.Pairs)
		if !(mean >= m.MinLog-slack && mean <= m.MaxLog+slack) {
			return fieldErr(field, "not a calibration this API wrote")
		}
	}
	return nil
}

// priorBound is a tokenizer's own error bound: 0 when exact.
func priorBound(tok Tokenizer) float64 {
	switch t := tok.(type) {
	case *scaled:
		return t.bound
	case *heuristic:
		return heuristicErrorBound
	}
	return 0
}

// withCalibration returns tok calibrated for model when the state has pairs
// for it; otherwise tok.
func withCalibration(tok Tokenizer, model string, c *Calibration) (Tokenizer, error) {
	if c == nil || c.Models == nil {
		return tok, nil
	}
	m, ok := c.Models[model]
	if !ok || m.Pairs == 0 {
		return tok, nil
	}
	if err := m.check("calibration.models." + model); err != nil {
		return nil, err
	}
	m.derive(priorBound(tok))
	return &scaled{name: tok.Name() + "+calibrated", base: tok, factor: m.Factor, bound: m.ErrorBound}, nil
}
