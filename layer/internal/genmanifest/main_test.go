package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/layermanifest"
	"github.com/gpuav-dbg/gpuav-dbg/options"
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
// registry order, then the options table's rows (on_error with its three
// values, robust...); a setting the table does not have is dropped.
func TestGenerate(t *testing.T) {
	in := `{"file_format_version": "1.2.0", "layer": {"name": "L", "features": {"settings": [
		{"key": "check_gone", "env": "X", "label": "old", "description": "", "type": "BOOL", "default": true},
		{"key": "on_error", "env": "Y", "label": "old", "description": "", "type": "ENUM", "default": "skip"}]}}}`
	s := settingsOf(t, in)
	if len(s) != len(options.With(options.Manifest)) {
		t.Fatalf("%d settings: %+v", len(s), s)
	}
	for i, c := range gpuav.Checks {
		want := layermanifest.Setting{Key: "check_" + c.ID, Env: options.CheckEnv(c.ID), Label: c.Title, Description: c.Help, Type: "BOOL", Default: c.Default}
		if !reflect.DeepEqual(s[i], want) {
			t.Errorf("setting %d: %+v, want %+v", i, s[i], want)
		}
	}
	byKey := map[string]layermanifest.Setting{}
	for _, x := range s {
		byKey[x.Key] = x
	}
	onError := byKey["on_error"]
	if onError.Env != "VK_LAYER_GPUAV_DBG_ON_ERROR" || onError.Type != "ENUM" || onError.Default != "skip" ||
		len(onError.Flags) != 3 || onError.Flags[0].Key != "skip" || onError.Flags[1].Key != "clamp" || onError.Flags[2].Key != "execute" {
		t.Errorf("on_error: %+v", onError)
	}
	if r := byKey["robust"]; r.Env != "VK_LAYER_GPUAV_DBG_ROBUST" || r.Type != "BOOL" || r.Default != false {
		t.Errorf("robust: %+v", r)
	}
	if r := byKey["printf_buffer_bytes"]; r.Type != "UINT32" || r.Default != float64(65536) {
		t.Errorf("printf_buffer_bytes: %+v", r)
	}
	if r := byKey["socket"]; r.View != "HIDDEN" || r.Default != "" {
		t.Errorf("socket: %+v", r)
	}
	if _, ok := byKey["check_gone"]; ok {
		t.Error("a setting the table does not have was kept")
	}
	for _, o := range options.Of(options.Layer) {
		if _, ok := byKey[o.Key]; ok == (o.TestOnly || o.Where&options.Manifest == 0) {
			t.Errorf("%s: in the manifest %v; test-only %v", o.Key, ok, o.TestOnly)
		}
	}
	if _, err := generate([]byte(`{"layer": {"unknown": 1}}`)); err == nil {
		t.Error("a field the generator does not know was dropped, want an error")
	}
}

// TestGenerateReadsTheTable: a row added to the options table is a
// setting of the manifest, with its type, default and values.
func TestGenerateReadsTheTable(t *testing.T) {
	defer options.WithExtra(&options.Option{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Kind: options.Enum,
		Default: "b", Values: []options.Value{{Key: "a", Title: "A"}, {Key: "b", Title: "B"}}, Title: "Test row",
		Help: "a row of the test", Where: options.Manifest})()
	s := settingsOf(t, `{"file_format_version": "1.2.0", "layer": {"name": "L", "features": {"settings": []}}}`)
	last := s[len(s)-1]
	want := layermanifest.Setting{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Label: "Test row", Description: "a row of the test",
		Type: "ENUM", Default: "b", Flags: []layermanifest.Flag{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}}}
	if !reflect.DeepEqual(last, want) {
		t.Errorf("the test row: %+v, want %+v", last, want)
	}
}

// settingsOf generates the manifest in and returns its settings.
func settingsOf(t *testing.T, in string) []layermanifest.Setting {
	t.Helper()
	b, err := generate([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var m layermanifest.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m.Layer.Features.Settings
}
