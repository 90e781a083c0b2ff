module github.com/tokenfit/tokenfit

go 1.26

require (
	github.com/dlclark/regexp2/v2 v2.5.1
	github.com/tetratelabs/wazero v1.12.0
	github.com/tiktoken-go/tokenizer v0.10.0
)

require golang.org/x/sys v0.44.0 // indirect
