package core

import "errors"

// ErrStopped is the error of an operation stopped because its caller no
// longer wanted the answer (API.DoUntil's done was closed).
var ErrStopped = errors.New("tokenfit: stopped: the caller gave up on the answer")
