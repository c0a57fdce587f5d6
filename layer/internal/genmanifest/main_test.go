package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/layermanifest"
)

const committed = "../../VkLayer_gpuav_dbg.json"

// TestManifestUpToDate fails when the committed manifest's check settings
// are not the registry's: run go generate ./layer.
func TestManifestUpToDate(t *testing.T) {
	old, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := generate(old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, old) {
		t.Errorf("%s is stale: run go generate ./layer", committed)
	}
}

// TestGenerate: every check gets one setting with its registry values, in
// registry order, then on_error with its three values and robust, before
// the other settings, which are kept.
func TestGenerate(t *testing.T) {
	in := `{"file_format_version": "1.2.0", "layer": {"name": "L", "features": {"settings": [
		{"key": "check_gone", "env": "X", "label": "old", "description": "", "type": "BOOL", "default": true},
		{"key": "on_error", "env": "Y", "label": "old", "description": "", "type": "ENUM", "default": "skip"},
		{"key": "socket", "env": "S", "label": "Socket", "description": "d", "type": "STRING", "default": "", "view": "HIDDEN"}]}}}`
	b, err := generate([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var m layermanifest.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	s := m.Layer.Features.Settings
	if len(s) != len(gpuav.Checks)+3 {
		t.Fatalf("%d settings: %+v", len(s), s)
	}
	for i, c := range gpuav.Checks {
		want := layermanifest.Setting{Key: "check_" + c.ID, Env: gpuav.CheckEnv(c.ID), Label: c.Title, Description: c.Help, Type: "BOOL", Default: c.Default}
		if !reflect.DeepEqual(s[i], want) {
			t.Errorf("setting %d: %+v, want %+v", i, s[i], want)
		}
	}
	onError := s[len(gpuav.Checks)]
	if onError.Key != "on_error" || onError.Env != "VK_LAYER_GPUAV_DBG_ON_ERROR" || onError.Type != "ENUM" || onError.Default != "skip" ||
		len(onError.Flags) != 3 || onError.Flags[0].Key != "skip" || onError.Flags[1].Key != "clamp" || onError.Flags[2].Key != "execute" {
		t.Errorf("on_error: %+v", onError)
	}
	if r := s[len(gpuav.Checks)+1]; r.Key != "robust" || r.Env != "VK_LAYER_GPUAV_DBG_ROBUST" || r.Type != "BOOL" || r.Default != false {
		t.Errorf("robust: %+v", r)
	}
	if last := s[len(s)-1]; last.Key != "socket" || last.View != "HIDDEN" || last.Default != "" {
		t.Errorf("other setting changed: %+v", last)
	}
	if _, err := generate([]byte(`{"layer": {"unknown": 1}}`)); err == nil {
		t.Error("a field the generator does not know was dropped, want an error")
	}
}
