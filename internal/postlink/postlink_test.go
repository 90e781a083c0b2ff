package postlink

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// module writes a module with one memory section (id 5) and a data section
// holding segs in the given order.
func module(segs []segment) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 5, 3, 1, 0, 1) // one memory, min 1 page
	body := encodeData(segs)
	m = append(m, sectionData)
	m = appendUleb(m, uint32(len(body)))
	return append(m, body...)
}

// image is the memory a module's data section initialises, and its number
// of segments.
func image(t *testing.T, m []byte) ([]byte, int) {
	t.Helper()
	p := 8
	for p < len(m) {
		size, n, err := uleb(m, p+1)
		if err != nil {
			t.Fatal(err)
		}
		if m[p] == sectionData {
			segs, err := parseData(m[p+1+n : p+1+n+int(size)])
			if err != nil {
				t.Fatal(err)
			}
			mem := make([]byte, 1<<16)
			for _, s := range segs {
				copy(mem[s.offset:], s.data)
			}
			return mem, len(segs)
		}
		p += 1 + n + int(size)
	}
	t.Fatal("no data section")
	return nil, 0
}

func TestMergeData_Gaps(t *testing.T) {
	segs := []segment{
		{offset: 200, data: []byte("late")}, // the linker writes some data out of order
		{offset: 10, data: []byte("ab")},
		{offset: 12, data: []byte("cd")},  // touching: joined
		{offset: 16, data: []byte("ef")},  // 2 zero bytes between: joined at maxGap 2
		{offset: 21, data: []byte("gh")},  // 3: not joined
		{offset: 100, data: []byte("ij")}, // far
	}
	in := module(segs)
	for _, tc := range []struct {
		name   string
		maxGap int
		want   int
	}{
		{"touching only", 0, 5},
		{"two zeros", 2, 4},
		{"three zeros", 3, 3},
		{"everything", 1 << 20, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := MergeData(in, tc.maxGap)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := image(t, in)
			got, n := image(t, out)
			if !bytes.Equal(got, want) {
				t.Error("memory differs after merging")
			}
			if n != tc.want {
				t.Errorf("%d segments, want %d", n, tc.want)
			}
		})
	}
}

// TestMergeData_Random merges random non-overlapping segments and checks
// that memory comes out the same.
func TestMergeData_Random(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var segs []segment
		for off := r.IntN(50); off < 60000; {
			n := 1 + r.IntN(40)
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(1 + r.IntN(255))
			}
			segs = append(segs, segment{offset: uint32(off), data: data})
			off += n + r.IntN(100)
		}
		r.Shuffle(len(segs), func(i, j int) { segs[i], segs[j] = segs[j], segs[i] })
		in := module(segs)
		out, err := MergeData(in, r.IntN(80))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := image(t, in)
		if got, _ := image(t, out); !bytes.Equal(got, want) {
			t.Fatal("memory differs after merging")
		}
		again, err := MergeData(in, MaxGap)
		if err != nil {
			t.Fatal(err)
		}
		if again2, _ := MergeData(in, MaxGap); !bytes.Equal(again, again2) {
			t.Fatal("two runs give different bytes")
		}
	}
}

func TestMergeData_Unsupported(t *testing.T) {
	overlap := module([]segment{{offset: 10, data: []byte("abcd")}, {offset: 12, data: []byte("x")}})
	passive := module(nil)
	passive = append(passive[:len(passive)-3], sectionData, 4, 1, 1, 1, 'x') // a passive segment
	dataCount := append(module(nil), sectionDataCount, 1, 0)
	global := module(nil)
	global = append(global[:len(global)-3], sectionData, 6, 1, 0, 0x23, 0, opEnd, 0) // global.get 0
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"not wasm", []byte("\x7fELF\x02\x01\x01\x00")},
		{"overlapping segments", overlap},
		{"passive segment", passive},
		{"data count section", dataCount},
		{"offset from a global", global},
		{"truncated", module([]segment{{offset: 1, data: []byte("abc")}})[:20]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := MergeData(tc.in, MaxGap); !errors.Is(err, ErrUnsupported) {
				t.Errorf("err = %v, want ErrUnsupported", err)
			}
		})
	}
}

func TestLEB128(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, -1, -64, -65, 127, 128, 1 << 20, -1 << 31, 1<<31 - 1} {
		b := appendSleb(nil, int64(v))
		got, n, err := sleb32(b, 0)
		if err != nil || got != v || n != len(b) {
			t.Errorf("sleb32(%d) = %d, %d, %v", v, got, n, err)
		}
		u := uint32(v)
		b = appendUleb(nil, u)
		gu, n, err := uleb(b, 0)
		if err != nil || gu != uint64(u) || n != len(b) {
			t.Errorf("uleb(%d) = %d, %d, %v", u, gu, n, err)
		}
	}
}
