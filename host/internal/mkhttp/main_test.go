package main

import (
	"bytes"
	"os"
	"testing"
)

// TestTableCurrent holds the npm package's copy of the routes and statuses
// to host/httpapi's.
func TestTableCurrent(t *testing.T) {
	got, err := os.ReadFile("../../../js/src/http-table.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, render()) {
		t.Fatal("js/src/http-table.js differs from host/httpapi: run go generate ./host/httpapi")
	}
}
