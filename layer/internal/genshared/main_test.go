package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHeadersUpToDate fails when a committed header is not what the Go
// definitions make: run go generate ./layer.
func TestHeadersUpToDate(t *testing.T) {
	for _, h := range headers() {
		got, err := os.ReadFile(filepath.Join("../..", h.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, h.text()) {
			t.Errorf("layer/%s is stale: run go generate ./layer", h.file)
		}
	}
}

// TestNoHandCopies: the layer's hand-written headers define none of the
// generated constants again.
func TestNoHandCopies(t *testing.T) {
	generated := map[string]bool{}
	for _, h := range headers() {
		for _, c := range h.consts {
			generated["GPUAVDBG_"+c.Name] = true
		}
	}
	define := regexp.MustCompile(`(?m)^\s*#\s*define\s+(GPUAVDBG_\w+)|^\s*(GPUAVDBG_\w+)\s*=`)
	files, _ := filepath.Glob("../../*.h")
	c, _ := filepath.Glob("../../*.c")
	for _, f := range append(files, c...) {
		if strings.HasSuffix(f, "_gen.h") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range define.FindAllStringSubmatch(string(b), -1) {
			if name := m[1] + m[2]; generated[name] {
				t.Errorf("%s defines %s, which layer/internal/genshared generates", filepath.Base(f), name)
			}
		}
	}
}
