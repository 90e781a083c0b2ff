//go:build wasip1

package reactor

// variant is how the module answers errors, which its own package tells
// the exports every module shares (Use): the full modules as core does
// (package full), the lean one without core (package lean). Each is a
// function that package sets, not code here, so that a module links only
// its own.
var variant struct {
	answer    func(err error) (answer []byte, status int32)
	recovered func(p any) error
}

// Use sets how the module answers errors: answer returns last_error's
// answer for err and its status, recovered the error a recovered panic
// value stands for. The module's package calls it in its initialisation,
// before any export can run.
func Use(answer func(err error) ([]byte, int32), recovered func(p any) error) {
	variant.answer, variant.recovered = answer, recovered
}
