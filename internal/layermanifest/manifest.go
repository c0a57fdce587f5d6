// Package layermanifest is the Vulkan loader's layer manifest (JSON, file
// format 1.2.0) as far as gpuav-dbg uses it: doctor reads layers'
// manifests with it (package device), layer/internal/genmanifest writes
// the check settings of ours, and the layer's tests read ours.
package layermanifest

// Manifest is a layer manifest.
type Manifest struct {
	FileFormatVersion string `json:"file_format_version"`
	Layer             Layer  `json:"layer"`
}

// Layer is the manifest's layer.
type Layer struct {
	Name                  string   `json:"name"`
	Type                  string   `json:"type"`
	LibraryPath           string   `json:"library_path"`
	APIVersion            string   `json:"api_version"`
	ImplementationVersion string   `json:"implementation_version"`
	Description           string   `json:"description"`
	Introduction          string   `json:"introduction"`
	Platforms             []string `json:"platforms"`
	Features              Features `json:"features"`
}

// Features holds the layer's settings (what vkconfig shows).
type Features struct {
	Settings []Setting `json:"settings"`
}

// Setting is one layer setting.
type Setting struct {
	Key         string `json:"key"`
	Env         string `json:"env"`
	Label       string `json:"label"`
	Description string `json:"description"`
	Type        string `json:"type"`
	Default     any    `json:"default"`
	// Flags are the values of an ENUM setting.
	Flags []Flag `json:"flags,omitempty"`
	View  string `json:"view,omitempty"`
}

// Flag is one value of an ENUM setting.
type Flag struct {
	Key         string `json:"key"`
	Label       string `json:"label"`
	Description string `json:"description"`
}
