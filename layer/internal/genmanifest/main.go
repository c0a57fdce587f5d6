// Command genmanifest writes the per-check settings of the layer's
// manifest (layer/VkLayer_gpuav_dbg.json) from the check registry
// (gpuav.Checks): one BOOL setting check_<id> per check, with the check's
// title, help and default. The manifest's other fields and settings are
// kept as they are. It runs from `go generate ./layer`; its test fails when
// the committed manifest is stale.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/layermanifest"
)

func main() {
	path := flag.String("manifest", "VkLayer_gpuav_dbg.json", "the manifest to update")
	flag.Parse()
	old, err := os.ReadFile(*path)
	if err != nil {
		log.Fatalf("genmanifest: %v", err)
	}
	b, err := generate(old)
	if err != nil {
		log.Fatalf("genmanifest: %s: %v", *path, err)
	}
	if err := os.WriteFile(*path, b, 0o644); err != nil {
		log.Fatalf("genmanifest: %v", err)
	}
}

// generate returns the manifest old with its check settings replaced by
// the registry's, first and in registry order.
func generate(old []byte) ([]byte, error) {
	var m layermanifest.Manifest
	dec := json.NewDecoder(bytes.NewReader(old)) // a field Manifest does not know is an error, never dropped
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	settings := make([]layermanifest.Setting, 0, len(m.Layer.Features.Settings))
	for _, c := range gpuav.Checks {
		settings = append(settings, layermanifest.Setting{Key: gpuav.CheckSettingKey(c.ID), Env: gpuav.CheckEnv(c.ID),
			Label: c.Title, Description: c.Help, Type: "BOOL", Default: c.Default})
	}
	for _, s := range m.Layer.Features.Settings {
		if !strings.HasPrefix(s.Key, gpuav.CheckSettingKey("")) {
			settings = append(settings, s)
		}
	}
	m.Layer.Features.Settings = settings
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	return buf.Bytes(), nil
}
