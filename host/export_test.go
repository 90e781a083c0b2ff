package host

import (
	"context"
	"errors"
	"sort"

	"github.com/tetratelabs/wazero"

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

// LeanExportsForTest lists the functions checkExports requires of the lean
// module, in wasm/exports-lite.txt's notation.
func LeanExportsForTest() []string {
	var out []string
	for _, name := range leanExports {
		sig := exports[name]
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

// RegisteredState is the registry state a fresh instance is given, as one
// registerModels request.
func RegisteredState(h *Host) []byte {
	_, req := h.regs.state()
	return req
}

// Hold allocates n bytes in the instance's memory and keeps them, for the
// tests of memories past 2 GiB; it returns their address.
func Hold(ctx context.Context, i *Instance, n uint32) (uint32, error) {
	p, err := i.in.invoke(ctx, i.in.alloc, uint64(n))
	if err == nil && p == 0 {
		err = i.in.status(ctx, -2)
	}
	return uint32(p), err
}

// TextAddress is the address of the instance's input buffer for texts and
// requests.
func TextAddress(i *Instance) uint32 { return i.in.text.ptr }

// ModuleConfigForTest is the configuration every instance starts with.
func ModuleConfigForTest() wazero.ModuleConfig { return moduleConfig() }

// SharesCompilation says whether two Hosts run their instances in one
// runtime, from one compilation of the module.
func SharesCompilation(a, b *Host) bool { return a.comp == b.comp }

// LoadTokenizerPaths loads data under name on the checked-out instance
// through load_tokenizer, then as a module without that export is loaded
// (base64 through call), and returns the two answers.
func LoadTokenizerPaths(ctx context.Context, i *Instance, name string, data []byte) (export, call []byte, err error) {
	if i.in.loadTok == nil {
		return nil, nil, errors.New("the module has no load_tokenizer")
	}
	if export, err = i.in.loadTokenizer(ctx, name, data); err != nil {
		return nil, nil, err
	}
	f := i.in.loadTok
	i.in.loadTok = nil
	defer func() { i.in.loadTok = f }()
	call, err = i.in.loadTokenizer(ctx, name, data)
	return export, call, err
}
