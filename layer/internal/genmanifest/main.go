// Command genmanifest writes the settings of the layer's manifest
// (layer/VkLayer_gpuav_dbg.json) that gpuav defines: one BOOL setting
// check_<id> per check of the registry (gpuav.Checks), with the check's
// title, help and default, then on_error (an ENUM of gpuav.OnErrors) and
// robust. The manifest's other fields and settings are kept as they are. It runs from `go generate ./layer`; its test fails when
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

// generate returns the manifest old with its generated settings replaced
// by gpuav's, first: the checks in registry order, on_error, robust.
func generate(old []byte) ([]byte, error) {
	var m layermanifest.Manifest
	dec := json.NewDecoder(bytes.NewReader(old)) // a field Manifest does not know is an error, never dropped
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	settings := generated()
	for _, s := range m.Layer.Features.Settings {
		if !isGenerated(s.Key) {
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

// generated returns the settings gpuav defines.
func generated() []layermanifest.Setting {
	var out []layermanifest.Setting
	for _, c := range gpuav.Checks {
		out = append(out, layermanifest.Setting{Key: gpuav.CheckSettingKey(c.ID), Env: gpuav.CheckEnv(c.ID),
			Label: c.Title, Description: c.Help, Type: "BOOL", Default: c.Default})
	}
	var flags []layermanifest.Flag
	for _, b := range gpuav.OnErrors {
		flags = append(flags, layermanifest.Flag{Key: string(b.Value), Label: b.Title, Description: b.Help})
	}
	return append(out,
		layermanifest.Setting{Key: gpuav.SettingOnError, Env: gpuav.EnvOnError, Label: "On a failed check",
			Description: "What an access whose check failed does; it is reported whichever is chosen.",
			Type:        "ENUM", Default: string(gpuav.DefaultOnError), Flags: flags},
		layermanifest.Setting{Key: gpuav.SettingRobust, Env: gpuav.EnvRobust, Label: "Robust only",
			Description: gpuav.RobustHelp, Type: "BOOL", Default: false})
}

// isGenerated says whether the setting key is one generated writes.
func isGenerated(key string) bool {
	return strings.HasPrefix(key, gpuav.CheckSettingKey("")) || key == gpuav.SettingOnError || key == gpuav.SettingRobust
}
