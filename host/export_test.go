package host

import (
	"sort"

	"github.com/tokenfit/tokenfit/internal/exportlist"
)

// ExportsForTest lists the functions checkExports requires, in
// wasm/exports.txt's notation.
func ExportsForTest() []string {
	var out []string
	for name, sig := range exports {
		out = append(out, name+" "+exportlist.Signature(sig.params, sig.results))
	}
	sort.Strings(out)
	return out
}

// MemorySize is the linear memory of a checked-out instance, in bytes.
func MemorySize(i *Instance) uint32 { return i.in.mod.Memory().Size() }

// IdleInstances is the number of instances waiting in the pool.
func IdleInstances(h *Host) int { return len(h.idle) }

// Retire makes Release close the instance instead of pooling it, as it
// does with one that trapped or grew too big.
func Retire(i *Instance) { i.in.broken = true }
