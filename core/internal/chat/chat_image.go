package chat

import (
	"encoding/base64"
	"encoding/binary"
	"io"
	"math"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/format"
)

// Image tokens (testdata/chat-rules.md §7). The cost depends only on the
// image's size and detail, so a data URL's header is all that is read.

// image returns the tokens of one image part and records why the count is
// not exact.
func (c *chatCounter) image(img *ImageURL) int {
	ir := c.rules.Images
	if ir.Kind == ImagesNone {
		c.inexact(format.Sprintf("the %s models take no images: images estimated with gpt-4o's tiles", c.rules.Family))
		ir = tiles(85, 170)
	}
	if ir.Kind == ImagesPatches {
		c.inexact(format.Sprintf("image tokens follow the documented patch formula (32-px patches × %g, +%d): an estimate", ir.Multiplier, ir.PatchExtra))
	} else {
		c.inexact(format.Sprintf("image tokens follow the documented tile formula (%d + %d per 512-px tile): an estimate", ir.Base, ir.Tile))
	}
	w, h := img.Width, img.Height
	if w <= 0 || h <= 0 {
		w, h = dataURLSize(img.URL)
	}
	known := w > 0 && h > 0
	switch ir.Kind {
	case ImagesPatches:
		if !known {
			c.inexact("an image's size is unknown (not a PNG, JPEG, GIF or WebP data URL, and no width and height): counted at its largest cost")
			return int(math.Ceil(float64(ir.PatchCap)*ir.Multiplier-eps)) + ir.PatchExtra
		}
		return patchTokens(ir, w, h)
	default:
		if img.Detail == "low" {
			return ir.Base
		}
		if !known {
			c.inexact("an image's size is unknown (not a PNG, JPEG, GIF or WebP data URL, and no width and height): counted at its largest cost")
			return ir.Base + 8*ir.Tile // 2048×768 after scaling: 4×2 tiles
		}
		return ir.Base + ir.Tile*tileCount(w, h)
	}
}

// eps absorbs floating-point error before rounding up a quotient that is
// meant to be whole.
const eps = 1e-9

// tileCount returns the 512-pixel tiles of a w×h image after it is scaled
// to fit 2048×2048 and then so that its shorter side is at most 768; images
// are never scaled up.
func tileCount(w, h int) int {
	fw, fh := float64(w), float64(h)
	if m := max(fw, fh); m > 2048 {
		fw, fh = fw*2048/m, fh*2048/m
	}
	if m := min(fw, fh); m > 768 {
		fw, fh = fw*768/m, fh*768/m
	}
	return int(math.Ceil(fw/512-eps)) * int(math.Ceil(fh/512-eps))
}

// patchTokens returns the tokens of a w×h image on a patch-based model:
// 32-pixel patches, scaled down to fit PatchCap, times Multiplier rounded
// up, plus PatchExtra.
func patchTokens(ir ImageRules, w, h int) int {
	fw, fh := float64(w), float64(h)
	pw, ph := math.Ceil(fw/32), math.Ceil(fh/32)
	if ir.PatchCap > 0 && pw*ph > float64(ir.PatchCap) {
		// Shrink to the cap, then further until whole patches fit across
		// the limiting side (the documented procedure).
		s := math.Sqrt(32 * 32 * float64(ir.PatchCap) / (fw * fh))
		pw, ph = fw*s/32, fh*s/32
		f := min(math.Floor(pw)/pw, math.Floor(ph)/ph)
		pw, ph = math.Ceil(pw*f-eps), math.Ceil(ph*f-eps)
	}
	return int(math.Ceil(pw*ph*ir.Multiplier-eps)) + ir.PatchExtra
}

// dataURLSize returns the pixel size of a base64 data URL's PNG, JPEG, GIF
// or WebP image, or zeros. It decodes only the header.
func dataURLSize(url string) (w, h int) {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return 0, 0
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return 0, 0
	}
	return imageSize(base64.NewDecoder(base64.StdEncoding, strings.NewReader(data)))
}

// imageSize reads an image header. Cost: the header's bytes (for JPEG, up
// to the frame header, skipping earlier segments).
func imageSize(r io.Reader) (w, h int) {
	var hd [30]byte
	n, _ := io.ReadFull(r, hd[:])
	b := hd[:n]
	switch {
	case n >= 24 && string(b[:8]) == "\x89PNG\r\n\x1a\n" && string(b[12:16]) == "IHDR":
		return int(binary.BigEndian.Uint32(b[16:])), int(binary.BigEndian.Uint32(b[20:]))
	case n >= 10 && (string(b[:6]) == "GIF87a" || string(b[:6]) == "GIF89a"):
		return int(binary.LittleEndian.Uint16(b[6:])), int(binary.LittleEndian.Uint16(b[8:]))
	case n >= 30 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		switch string(b[12:16]) {
		case "VP8X":
			return 1 + int(uint32(b[24])|uint32(b[25])<<8|uint32(b[26])<<16),
				1 + int(uint32(b[27])|uint32(b[28])<<8|uint32(b[29])<<16)
		case "VP8L":
			if b[20] != 0x2f {
				return 0, 0
			}
			v := binary.LittleEndian.Uint32(b[21:])
			return 1 + int(v&0x3fff), 1 + int(v>>14&0x3fff)
		case "VP8 ":
			if string(b[23:26]) != "\x9d\x01\x2a" {
				return 0, 0
			}
			return int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff)
		}
	case n >= 4 && b[0] == 0xff && b[1] == 0xd8:
		return jpegSize(io.MultiReader(strings.NewReader(string(b[2:])), r))
	}
	return 0, 0
}

// jpegSize scans JPEG segments, after the start-of-image marker, for the
// frame header (SOF0–SOF15 except DHT, JPG and DAC).
func jpegSize(r io.Reader) (w, h int) {
	var m [2]byte
	for {
		if _, err := io.ReadFull(r, m[:1]); err != nil {
			return 0, 0
		}
		if m[0] != 0xff {
			return 0, 0
		}
		// Fill bytes: any number of 0xff before the marker code.
		for m[0] == 0xff {
			if _, err := io.ReadFull(r, m[:1]); err != nil {
				return 0, 0
			}
		}
		marker := m[0]
		if marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7) {
			continue // no payload
		}
		if marker == 0xd9 || marker == 0xda {
			return 0, 0 // end of image or start of scan before a frame
		}
		if _, err := io.ReadFull(r, m[:]); err != nil {
			return 0, 0
		}
		length := int(binary.BigEndian.Uint16(m[:]))
		if length < 2 {
			return 0, 0
		}
		if marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc {
			var f [5]byte
			if length < 7 {
				return 0, 0
			}
			if _, err := io.ReadFull(r, f[:]); err != nil {
				return 0, 0
			}
			return int(binary.BigEndian.Uint16(f[3:])), int(binary.BigEndian.Uint16(f[1:]))
		}
		if _, err := io.CopyN(io.Discard, r, int64(length-2)); err != nil {
			return 0, 0
		}
	}
}
