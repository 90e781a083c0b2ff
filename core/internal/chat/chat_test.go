package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"slices"
	"testing"
)

// bookTable is chat-rules.md §4.2's example, with keys out of alphabetical
// order so that order preservation shows.
var bookTable = []funcInput{
	{&FunctionDef{Name: "book_table", Description: "Reserve a table at a restaurant", Parameters: RawJSON(`{
		"type": "object",
		"properties": {
			"restaurant": {"type": "string", "description": "Name of the restaurant"},
			"party_size": {"type": "integer", "description": "Number of guests"},
			"seating": {"type": "string", "enum": ["indoor", "outdoor"]},
			"contact": {"type": "object", "description": "Who to call", "properties": {
				"phone": {"type": "string", "description": "Phone number"},
				"sms_ok": {"type": "boolean"}
			}, "required": ["phone"]},
			"tags": {"type": "array", "items": {"type": "string"}},
			"priority": {"type": "integer", "enum": [1, 2, 3]}
		},
		"required": ["restaurant", "party_size"]
	}`)}, "functions[0]"},
	{&FunctionDef{Name: "list_restaurants"}, "functions[1]"},
}

func TestRenderFunctions(t *testing.T) {
	for _, tc := range []struct {
		style ParamStyle
		want  string
	}{
		{ParamsIndented, `namespace functions {

// Reserve a table at a restaurant
type book_table = (_: {
// Name of the restaurant
restaurant: string,
// Number of guests
party_size: number,
seating?: "indoor" | "outdoor",
// Who to call
contact?: {
  phone: string,
  sms_ok?: boolean,
},
tags?: string[],
priority?: 1 | 2 | 3,
}) => any;

type list_restaurants = () => any;

} // namespace functions`},
		{ParamsFlat, `namespace functions {

// Reserve a table at a restaurant
type book_table = (_: {
// Name of the restaurant
restaurant: string,
// Number of guests
party_size: number,
seating?: "indoor" | "outdoor",
// Who to call
contact?: {
// Phone number
phone: string,
sms_ok?: boolean,
},
tags?: string[],
priority?: 1 | 2 | 3,
}) => any;

type list_restaurants = () => any;

} // namespace functions`},
	} {
		t.Run(string(tc.style), func(t *testing.T) {
			r, err := renderFunctions(bookTable, tc.style)
			if err != nil {
				t.Fatal(err)
			}
			if r.text != tc.want {
				t.Errorf("got\n%s\nwant\n%s", r.text, tc.want)
			}
			// sms_ok, tags and priority lack descriptions and are not string enums.
			if !r.nested || r.undescribed != 3 || len(r.unknown) != 0 {
				t.Errorf("nested %v, undescribed %d, unknown %q; want true, 3, none", r.nested, r.undescribed, r.unknown)
			}
		})
	}
}

func TestRenderFunctions_Types(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
		unknown            []string
	}{
		{"anyOf with const", `{"anyOf":[{"type":"object","properties":{"kind":{"type":"string","const":"a"}},"required":["kind"]},{"type":"null"}]}`, "{\nkind: string,\n} | null", nil},
		{"array of objects", `{"type":"array","items":{"type":"object","properties":{"n":{"type":"number"}}}}`, "{\nn?: number,\n}[]", nil},
		{"no type", `{}`, "any", nil},
		{"empty object", `{"type":"object"}`, "{\n\n}", nil},
		{"number enum keeps literals", `{"type":"number","enum":[-1,2.5]}`, "-1 | 2.5", nil},
		{"type list", `{"type":["string","null"]}`, "string | null", []string{"type as an array"}},
		{"array without items", `{"type":"array"}`, "any[]", []string{"array without items"}},
		{"unknown keywords", `{"type":"string","format":"date","title":"T"}`, "string", []string{"format", "title"}},
		{"duplicate key keeps first place, last value", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"},"a":{"type":"boolean"}}}`, "{\na?: boolean,\nb?: number,\n}", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := `{"type":"object","properties":{"x":` + tc.schema + `},"required":["x"]}`
			r, err := renderFunctions([]funcInput{{&FunctionDef{Name: "f", Parameters: RawJSON(params)}, "functions[0]"}}, ParamsFlat)
			if err != nil {
				t.Fatal(err)
			}
			want := "namespace functions {\n\ntype f = (_: {\nx: " + tc.want + ",\n}) => any;\n\n} // namespace functions"
			if r.text != want {
				t.Errorf("got\n%s\nwant\n%s", r.text, want)
			}
			if !slices.Equal(r.unknown, tc.unknown) {
				t.Errorf("unknown keywords %q, want %q", r.unknown, tc.unknown)
			}
		})
	}
}

func TestImageTiles(t *testing.T) {
	for _, tc := range []struct{ w, h, tiles int }{
		{1, 1, 1}, {512, 512, 1}, {513, 512, 2}, {1126, 488, 3}, {1024, 1024, 4}, {2048, 4096, 6}, {4096, 8192, 6}, {768, 2048, 8}, {10000, 10, 4},
	} {
		if got := tileCount(tc.w, tc.h); got != tc.tiles {
			t.Errorf("%d×%d: %d tiles, want %d", tc.w, tc.h, got, tc.tiles)
		}
	}
}

func TestImagePatches(t *testing.T) {
	one := ImageRules{Kind: ImagesPatches, Multiplier: 1, PatchCap: 1536}
	for _, tc := range []struct {
		w, h int
		ir   ImageRules
		want int
	}{
		{1024, 1024, one, 1024},
		{1800, 2400, one, 1452}, // the documentation's own example
		{128, 64, patches(1.62), 14},
		{128, 64, patches(2.46), 21},
		{128, 64, patches(1.72), 15},
		{50 * 32, 32, patches(1.62), 82}, // 81.00000000000001 must not round up to 82+1
	} {
		if got := patchTokens(tc.ir, tc.w, tc.h); got != tc.want {
			t.Errorf("%d×%d ×%v: %d, want %d", tc.w, tc.h, tc.ir.Multiplier, got, tc.want)
		}
	}
}

func dataURL(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

func TestDataURLSize(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 37, 21))
	var p, j, g bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&g, img, nil); err != nil {
		t.Fatal(err)
	}
	// WebP headers: lossless (VP8L) and extended (VP8X).
	vp8l := []byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f")
	vp8l = binary.LittleEndian.AppendUint32(vp8l, 36|20<<14)
	vp8l = append(vp8l, make([]byte, 8)...)
	vp8x := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00\x24\x00\x00\x14\x00\x00")
	for _, tc := range []struct {
		name, url string
		w, h      int
	}{
		{"png", dataURL("image/png", p.Bytes()), 37, 21},
		{"jpeg", dataURL("image/jpeg", j.Bytes()), 37, 21},
		{"gif", dataURL("image/gif", g.Bytes()), 37, 21},
		{"webp lossless", dataURL("image/webp", vp8l), 37, 21},
		{"webp extended", dataURL("image/webp", vp8x), 37, 21},
		{"not base64", "data:image/png,abc", 0, 0},
		{"garbage", "data:image/png;base64,!!!!", 0, 0},
		{"truncated png", dataURL("image/png", p.Bytes()[:20]), 0, 0},
		{"truncated jpeg", dataURL("image/jpeg", j.Bytes()[:40]), 0, 0},
		{"http", "https://example.com/x.png", 0, 0},
	} {
		if w, h := dataURLSize(tc.url); w != tc.w || h != tc.h {
			t.Errorf("%s: %d×%d, want %d×%d", tc.name, w, h, tc.w, tc.h)
		}
	}
}
