package host_test

// The tests hold the module's answers to core's natively, loadTokenizer's
// included (the host itself links no loader of its own: it loads into the
// module).
import _ "github.com/tokenfit/tokenfit/core/hf"
