package main

import (
	"bytes"
	"os"
	"testing"
)

// data.go is what gen writes from the library go.mod requires: a change of version, or
// of gen, regenerates it (go generate ./adapters/sdk/internal/cldr).
func TestDataIsGeneratedFromTheLibrary(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../data.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("data.go is not what gen writes now: run go generate ./adapters/sdk/internal/cldr")
	}
}
