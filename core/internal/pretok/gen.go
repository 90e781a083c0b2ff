package pretok

//go:generate go run gen_classes.go
