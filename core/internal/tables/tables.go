package tables

//go:generate go run gen_tables.go -out ../../tables

// Names lists the encodings this package can carry, most used first.
var Names = []string{"o200k_base", "cl100k_base", "p50k_base", "r50k_base"}
