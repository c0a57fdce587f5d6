package launcher

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

func TestEnv(t *testing.T) {
	set := session.Settings{Checks: map[string]bool{"descriptor_index_oob": true}, SafeMode: true}
	env := Env([]string{"HOME=/h", "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation", "BROKEN"}, "/layer", "/s.sock", set)
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := m[k]; dup {
			t.Fatalf("duplicate %s", k)
		}
		m[k] = v
	}
	want := map[string]string{
		"HOME": "/h", "VK_INSTANCE_LAYERS": "VK_LAYER_GPUAVDBG_validation", "VK_ADD_LAYER_PATH": "/layer",
		"VK_LAYER_GPUAV_DBG_SOCKET": "/s.sock", "VK_LAYER_GPUAV_DBG_RESERVE_SLOT": "0", "VK_LAYER_GPUAV_DBG_SAFE_MODE": "1",
		"VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB": "1", "VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_UNINITIALIZED": "0",
		"VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_DESTROYED": "0", "VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB": "0",
		"VK_LAYER_GPUAV_DBG_CHECK_TEXEL_BUFFER_OOB": "0", "VK_LAYER_GPUAV_DBG_CHECK_BDA_OOB": "0",
		"VK_LAYER_GPUAV_DBG_CHECK_RAY_QUERY": "0",
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("env %v\nwant %v", m, want)
	}
}

// TestResolveApp: each way an app can be wrong is said in one line.
func TestResolveApp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, mode := range map[string]os.FileMode{"gpuav-notes": 0o644, "gpuav-tool": 0o755} {
		if err := os.WriteFile(name, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ app, err string }{
		{"./nope", "./nope: no such file"},
		{"/etc/passwd", "/etc/passwd: not executable"},
		{"./sub", "./sub: not executable (a directory)"},
		{"no-such-command-gpuav", "no-such-command-gpuav: not found in $PATH"},
		{"gpuav-notes", "gpuav-notes: not found in $PATH, and ./gpuav-notes is not executable"},
		{"gpuav-tool", "gpuav-tool: not found in $PATH; to run the one in the working directory, name it ./gpuav-tool"},
		{"sub", "sub: not found in $PATH, and ./sub is not executable (a directory)"},
		{"./gpuav-tool", ""},
	} {
		_, err := ResolveApp(c.app)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("ResolveApp(%q) = %q, want %q", c.app, got, c.err)
		}
	}
	if p, err := ResolveApp("sh"); err != nil || !filepath.IsAbs(p) {
		t.Fatal(p, err)
	}
}

// TestFindLayer: $GPUAV_DBG_LAYER_PATH alone; else next to gpuav-dbg, then
// an install's share/vulkan/explicit_layer.d, then the loader's
// directories; the error names every place.
func TestFindLayer(t *testing.T) {
	root := t.TempDir()
	prefix := filepath.Join(root, "usr")
	exeDir := filepath.Join(prefix, "bin")
	installed := filepath.Join(prefix, "share", "vulkan", "explicit_layer.d")
	user := filepath.Join(root, "home", ".local", "share", "vulkan", "explicit_layer.d")
	env := map[string]string{"HOME": filepath.Join(root, "home"), "XDG_DATA_DIRS": filepath.Join(root, "sys")}
	getenv := func(k string) string { return env[k] }
	put := func(dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := FindLayer(getenv, exeDir)
	want := "layer manifest not found: looked for " + strings.Join([]string{
		filepath.Join(exeDir, ManifestName) + " (next to gpuav-dbg)",
		filepath.Join(installed, ManifestName) + " (installed with gpuav-dbg)",
		filepath.Join(user, ManifestName) + " (the loader's user directory)",
		filepath.Join(root, "sys", "vulkan", "explicit_layer.d", ManifestName) + " (the loader's system directory)",
		"/etc/vulkan/explicit_layer.d/" + ManifestName + " (the loader's system directory)",
	}, ", ") + "; build it with make, install it with make install, or set GPUAV_DBG_LAYER_PATH"
	if err == nil || err.Error() != want {
		t.Fatalf("no layer: %v\nwant %s", err, want)
	}
	for _, c := range []struct {
		put  string
		want Place
	}{
		{user, Place{user, "the loader's user directory"}},
		{installed, Place{installed, "installed with gpuav-dbg"}},
		{exeDir, Place{exeDir, "next to gpuav-dbg"}},
	} {
		put(c.put)
		if got, err := FindLayer(getenv, exeDir); err != nil || got != c.want {
			t.Errorf("with %s: %+v, %v; want %+v", c.put, got, err, c.want)
		}
	}
	env[EnvLayerPath] = filepath.Join(root, "elsewhere")
	if _, err := FindLayer(getenv, exeDir); err == nil || !strings.Contains(err.Error(), "($GPUAV_DBG_LAYER_PATH)") {
		t.Fatalf("override: %v", err)
	}
}
