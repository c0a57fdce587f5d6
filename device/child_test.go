package device

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestChildEnv(t *testing.T) {
	tests := []struct {
		name     string
		env      []string
		layerDir string
		want     []string
	}{
		{"drops layer enables", []string{"A=1", "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation", "VK_LOADER_LAYERS_ENABLE=*validation", "B=2"}, "",
			[]string{"A=1", "B=2"}},
		{"adds the layer path", []string{"A=1"}, "/l", []string{"A=1", "VK_ADD_LAYER_PATH=/l"}},
		{"prepends to the layer path", []string{"VK_ADD_LAYER_PATH=/x", "A=1"}, "/l", []string{"VK_ADD_LAYER_PATH=/l:/x", "A=1"}},
		{"keeps drivers", []string{"VK_DRIVER_FILES=/n.json", "VK_ADD_LAYER_PATH=/x"}, "", []string{"VK_DRIVER_FILES=/n.json", "VK_ADD_LAYER_PATH=/x"}},
	}
	for _, tt := range tests {
		if got := ChildEnv(tt.env, tt.layerDir); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// script writes an executable shell script that stands in for gpuav-dbg.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gpuav-dbg")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunChildFailures(t *testing.T) {
	tests := []struct {
		name, body string
		timeout    time.Duration
		want       string
	}{
		{"crash", `echo "in the driver" >&2; kill -SEGV $$`, 5 * time.Second,
			"device probe: crashed with segmentation fault (in the Vulkan loader or driver): in the driver"},
		{"hang", `exec sleep 30`, 300 * time.Millisecond,
			"device probe: no answer in 300ms (a Vulkan driver hangs in vkCreateInstance?)"},
		{"exit", `echo "gpuav-dbg: bad" >&2; exit 2`, 5 * time.Second, "device probe: exited 2: gpuav-dbg: bad"},
		{"garbage", `echo hello`, 5 * time.Second, "device probe: parse probe report: invalid character 'h'"},
		{"other version", `echo '{"version": 99}'`, 5 * time.Second, "device probe: parse probe report: version 99, want 1"},
		{"args", `[ "$1 $2" = "doctor --probe" ] || exit 7; echo '{"version": 1, "loader": {"found": false, "error": "x"}}'`, 5 * time.Second, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r, err := RunChild(context.Background(), script(t, tt.body), os.Environ(), tt.timeout)
			if tt.want == "" {
				if err != nil || r.Loader.Found || r.Loader.Error != "x" {
					t.Fatalf("got %+v, %v", r, err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if time.Since(start) > tt.timeout+2*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
		})
	}
}
