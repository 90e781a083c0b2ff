package core_test

import (
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

// budgetScale is how many repetitions the budget tests' requests take:
// the sizes (MBs) under TOKENFIT_LONG=1, a fiftieth otherwise.
func budgetScale(full int) int {
	if os.Getenv("TOKENFIT_LONG") == "1" {
		return full
	}
	return full / 50
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// warm loads what the first call of each operation loads once (the
// encodings' tables and caches), so that allocated measures the call.
func warm(api *core.API) {
	for _, r := range []struct{ op, req string }{
		{"countChat", deepArrayTool("llama-3.1-8b-instruct", 2, 2)},
		{"countChat", `{"model": "gemma-3-4b-it", "messages": [{"role": "user", "content": "hi"}]}`},
		{"chunk", `{"text": "a a", "maxTokens": 1}`},
		{"decode", `{"ids": [1]}`},
	} {
		api.Do(r.op, []byte(r.req))
	}
}

// deepArrayTool is a chat request with one tool whose schema holds a
// default depth arrays deep with n elements inside: about 2n bytes, which
// tojson(indent=4) prints on n lines of 4·depth spaces each.
func deepArrayTool(model string, depth, n int) string {
	return `{"model": "` + model + `", "messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "array", "default": ` +
		strings.Repeat("[", depth) + strings.Repeat("1,", n) + "1" + strings.Repeat("]", depth) + `}}}}}]}`
}

// wideAnyOf is a chat request whose tool schema nests anyOf depth levels
// deep, each level with width alternatives.
func wideAnyOf(model string, depth, width int) string {
	s := `{"type": "string"}`
	for range depth {
		s = `{"anyOf": [` + s + strings.Repeat(`, {"type": "integer", "minimum": 1}`, width) + `]}`
	}
	return `{"model": "` + model + `", "messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"x": ` + s + `}}}}]}`
}

// wantTooLarge calls op and holds it to a too_large error, having
// allocated at most twice the answer budget of the request (the work
// stopped before the rendering or the answer it refused; what it did
// before, such as chunk's token boundaries, is bounded by the input too).
func wantTooLarge(t *testing.T, api *core.API, op, req string) {
	t.Helper()
	warm(api)
	var err error
	n := allocated(func() { _, err = api.Do(op, []byte(req)) })
	if core.Code(err) != "too_large" {
		t.Fatalf("%s of %d bytes: %v, want too_large", op, len(req), err)
	}
	if limit := uint64(2 * (core.MaxGrowth*len(req) + core.GrowthSlack)); n > limit {
		t.Errorf("%s of %d bytes allocated %d MB before refusing, over the budget of %d MB", op, len(req), n>>20, limit>>20)
	}
	t.Logf("%s: %d KB refused after allocating %d KB: %v", op, len(req)>>10, n>>10, err)
}

// TestLimits_TemplateIndent: Llama 3.1's and 3.2's templates print tools
// with tojson(indent=4), about 130 times a 60-deep array's size; such a
// request is refused before it is rendered or counted (it was counted:
// 1.6 MB took 23.7 s and 1.27 GB). Gemma 3's images are counted without a
// part per marker token (each took 256).
func TestLimits_TemplateIndent(t *testing.T) {
	api := core.NewAPI()
	for _, model := range []string{"llama-3.1-8b-instruct", "llama-3.2-3b-instruct"} {
		wantTooLarge(t, api, "countChat", deepArrayTool(model, 60, budgetScale(800000)))
		wantTooLarge(t, api, "countChat", wideAnyOf(model, 28, budgetScale(7140)))
		// A schema of the same size in long descriptions is counted.
		long := strings.Replace(deepArrayTool(model, 1, 1), `"default": [1,1]`, `"description": "`+strings.Repeat("word ", budgetScale(320000))+`"`, 1)
		if _, err := api.Do("countChat", []byte(long)); err != nil || len(long) < budgetScale(1600000) {
			t.Errorf("%s, a schema of %d bytes in descriptions: %v", model, len(long), err)
		}
	}
	images := strings.Repeat(`{"type": "image_url", "image_url": {"url": "data:,"}}, `, budgetScale(1000000)/50)
	req := `{"model": "gemma-3-4b-it", "messages": [{"role": "user", "content": [` + images + `{"type": "text", "text": "hi"}]}]}`
	warm(api)
	var out []byte
	var err error
	n := allocated(func() { out, err = api.Do("countChat", []byte(req)) })
	if err != nil {
		t.Fatal(err)
	}
	// Before, 256 parts an image: 1,036 MB allocated for 1 MB of images.
	if limit := uint64(64 * len(req)); n > limit {
		t.Errorf("Gemma 3 with images: %d KB allocated for a %d KB request", n>>10, len(req)>>10)
	}
	var a struct{ Images int }
	if json.Unmarshal(out, &a) != nil || a.Images != 258*strings.Count(images, "image_url\",") {
		t.Errorf("Gemma 3 with images: %.200s", out)
	}
}

// TestLimits_Chunk: chunk answered 140 MB for 8 MiB with maxTokens 2 and
// overlap 1; over the answer budget it is refused before the chunks are cut
// (and, where the first estimate lets it through, as soon as they pass it).
func TestLimits_Chunk(t *testing.T) {
	api := core.NewAPI()
	text := strings.Repeat("a ", budgetScale(8<<20)/2)
	for _, c := range []struct{ max, overlap int }{{2, 1}, {1, 0}} {
		wantTooLarge(t, api, "chunk", `{"text": "`+text+`", "maxTokens": `+strconv.Itoa(c.max)+`, "overlap": `+strconv.Itoa(c.overlap)+`}`)
	}
	for _, c := range []struct{ max, overlap int }{{64, 0}, {64, 32}, {8, 2}} {
		req := `{"text": "` + text + `", "maxTokens": ` + strconv.Itoa(c.max) + `, "overlap": ` + strconv.Itoa(c.overlap) + `}`
		out, err := api.Do("chunk", []byte(req))
		if err != nil {
			t.Errorf("maxTokens %d, overlap %d: %v", c.max, c.overlap, err)
		} else if len(out) > core.MaxGrowth*len(req)+core.GrowthSlack {
			t.Errorf("maxTokens %d, overlap %d: a %d-byte answer", c.max, c.overlap, len(out))
		}
	}
}

// TestLimits_Decode: ids of o200k_base's longest token (128 bytes) answered
// 21 times their request; past DecodeBytesPerID an id they are refused
// before the text is made.
func TestLimits_Decode(t *testing.T) {
	api := core.NewAPI()
	ids := strings.Repeat("72056,", budgetScale(1<<20)) + "72056"
	wantTooLarge(t, api, "decode", `{"encoding": "o200k_base", "ids": [`+ids+`]}`)
	if _, err := api.Do("decode", []byte(`{"encoding": "o200k_base", "ids": [`+strings.Repeat("13225,", 100000)+`13225]}`)); err != nil {
		t.Errorf("ordinary ids: %v", err)
	}
}
