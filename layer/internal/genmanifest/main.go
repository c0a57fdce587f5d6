// Command genmanifest writes the settings of the layer's manifest
// (layer/VkLayer_gpuav_dbg.json): every row of the options table shown
// there (options.Manifest), in its order: one BOOL setting check_<id> per
// check of the registry (gpuav.Checks), with the check's title, help and
// default, then the table's own (on_error an ENUM of gpuav.OnErrors...).
// The manifest's other fields are kept as they are. It runs from `go
// generate ./layer`; its test fails when the committed manifest is stale.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/gpuav-dbg/gpuav-dbg/internal/layermanifest"
	"github.com/gpuav-dbg/gpuav-dbg/options"
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

// generate returns the manifest old with its settings replaced by the
// options table's.
func generate(old []byte) ([]byte, error) {
	var m layermanifest.Manifest
	dec := json.NewDecoder(bytes.NewReader(old)) // a field Manifest does not know is an error, never dropped
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	m.Layer.Features.Settings = generated()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// generated returns the settings of the options table's Manifest rows.
func generated() []layermanifest.Setting {
	var out []layermanifest.Setting
	for _, o := range options.With(options.Manifest) {
		st := layermanifest.Setting{Key: o.Key, Env: o.Env, Label: o.Title, Description: o.Help, Type: o.ManifestType(),
			Default: o.ManifestDefault()}
		for _, v := range o.Values {
			st.Flags = append(st.Flags, layermanifest.Flag{Key: v.Key, Label: v.Title, Description: v.Help})
		}
		if o.Where&options.Hidden != 0 {
			st.View = "HIDDEN"
		}
		out = append(out, st)
	}
	return out
}
