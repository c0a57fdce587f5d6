package device

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testLayer = "VK_LAYER_GPUAVDBG_validation"

// manifest writes a manifest naming layer and lib into dir.
func manifest(t *testing.T, dir, layer, lib string) string {
	t.Helper()
	p := filepath.Join(dir, "VkLayer_test.json")
	body := `{"file_format_version": "1.2.0", "layer": {"name": "` + layer + `", "type": "INSTANCE", "library_path": "` + lib + `", "implementation_version": "1"}}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckLayerFiles(t *testing.T) {
	built, err := filepath.Abs("../bin/libVkLayer_gpuav_dbg.so")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(built); err != nil {
		t.Fatalf("the layer is not built (run make): %v", err)
	}
	dir := t.TempDir()
	text := filepath.Join(dir, "text.so")
	if err := os.WriteFile(text, []byte("not elf"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, layer, lib string
		// wantErr is a substring of the error; "" means OK.
		wantErr string
	}{
		{"the built layer", testLayer, built, ""},
		{"relative path", testLayer, "./text.so", "text.so: not an ELF shared object"},
		{"missing library", testLayer, "./nope.so", "nope.so: no such file or directory"},
		{"another layer", "VK_LAYER_other", built, "names layer VK_LAYER_other, not " + testLayer},
		{"bare library name", testLayer, "libfoo.so", `library_path "libfoo.so" is searched in the system's library path`},
		{"a program without the export", testLayer, "/bin/true", "/bin/true: does not export vkNegotiateLoaderLayerInterfaceVersion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := manifest(t, dir, tt.layer, tt.lib)
			got := CheckLayerFiles(p, testLayer)
			if tt.wantErr == "" {
				if !got.OK || got.Error != "" || got.Library != built || got.Name != testLayer || got.Version != "1" {
					t.Fatalf("got %+v", got)
				}
				return
			}
			if got.OK || !strings.Contains(got.Error, tt.wantErr) {
				t.Fatalf("got %+v, want error containing %q", got, tt.wantErr)
			}
		})
	}
	t.Run("no manifest", func(t *testing.T) {
		got := CheckLayerFiles(filepath.Join(dir, "absent.json"), testLayer)
		if got.OK || !strings.Contains(got.Error, "no such file") {
			t.Fatalf("got %+v", got)
		}
	})
}

func TestParseManifest(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{`{"file_format_version":"1.2.0","layer":{"name":"L","library_path":"./l.so"}}`, ""},
		{`{`, "unexpected end of JSON input"},
		{`{"layer":{"name":"L","library_path":"./l.so"}}`, "no file_format_version"},
		{`{"file_format_version":"1.2.0","layer":{"library_path":"./l.so"}}`, "no layer.name"},
		{`{"file_format_version":"1.2.0","layer":{"name":"L"}}`, "no layer.library_path"},
	}
	for _, tt := range tests {
		_, err := ParseManifest([]byte(tt.in))
		if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseManifest(%s) = %v, want %q", tt.in, err, tt.wantErr)
		}
	}
}
