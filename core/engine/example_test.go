package engine_test

import (
	"fmt"

	"github.com/tokenfit/tokenfit/core/engine"
)

func ExampleEncoding_Count() {
	enc, _ := engine.Get("o200k_base")
	fmt.Println(enc.Count("Hello world"))
	// Output: 2
}

func ExampleEncoding_Encode() {
	enc, _ := engine.Get("o200k_base")
	ids := enc.Encode("Hello world")
	text, _ := enc.Decode(ids)
	fmt.Println(ids, text)
	// Output: [13225 2375] Hello world
}

func ExampleEncoding_Truncate() {
	enc, _ := engine.Get("o200k_base")
	fmt.Println(enc.Truncate("Hello world, again", 2, engine.KeepEnd))
	// Output: , again 2
}

func ExampleLiveCounter() {
	enc, _ := engine.Get("o200k_base")
	live := enc.NewLiveCounter(engine.UTF16)
	live.Reset("Hello world")
	n, _ := live.Edit(5, 0, ", dear")
	fmt.Println(n, live.Text())
	// Output: 4 Hello, dear world
}

func ExampleValidUTF8() {
	enc, _ := engine.Get("o200k_base")
	text := "caf\xc3"
	fmt.Printf("%+q %d %d\n", engine.ValidUTF8(text), enc.Count(text), len(enc.Encode(text)))
	// Output: "caf\ufffd" 2 2
}
