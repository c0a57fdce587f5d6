package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestLibraryUpToDate fails when gpuav/library_gen.go is not what the
// check functions in gpuav/shaders compile to: run go generate ./gpuav.
func TestLibraryUpToDate(t *testing.T) {
	t.Chdir("../..") // where go generate runs genlib
	want, err := os.ReadFile("library_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	got, err := generate("shaders/library.comp")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("library_gen.go is stale: run go generate ./gpuav")
	}
}

// TestLibrarySource: every .glsl file of the directory is in the library,
// those library.comp does not list after those it does, in name order.
func TestLibrarySource(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"lib.comp":    "#version 450\n#include \"common.glsl\"\n#include \"b.glsl\"\n\nvoid main() {}\n",
		"common.glsl": "", "a.glsl": "", "b.glsl": "", "c.glsl": "",
	} {
		if err := os.WriteFile(dir+"/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := librarySource(dir + "/lib.comp")
	if err != nil {
		t.Fatal(err)
	}
	want := "#version 450\n#include \"common.glsl\"\n#include \"b.glsl\"\n\n#include \"a.glsl\"\n#include \"c.glsl\"\nvoid main() {}\n"
	if got != want {
		t.Errorf("source:\n%s\nwant:\n%s", got, want)
	}
	if _, err := librarySource(dir + "/common.glsl"); err == nil || !strings.Contains(err.Error(), "no void main()") {
		t.Errorf("a source without main: %v", err)
	}
}
