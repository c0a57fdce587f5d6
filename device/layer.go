package device

import (
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/internal/layermanifest"
)

// NegotiateSymbol is the one function a layer library must export.
const NegotiateSymbol = "vkNegotiateLoaderLayerInterfaceVersion"

// Manifest is a layer manifest (JSON) as the doctor reads it.
type Manifest = layermanifest.Manifest

// ParseManifest reads a layer manifest: one layer with a name and a
// library path.
func ParseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("parse layer manifest: %w", err)
	}
	if m.FileFormatVersion == "" {
		return nil, errors.New("parse layer manifest: no file_format_version")
	}
	if m.Layer.Name == "" {
		return nil, errors.New("parse layer manifest: no layer.name")
	}
	if m.Layer.LibraryPath == "" {
		return nil, errors.New("parse layer manifest: no layer.library_path")
	}
	return &m, nil
}

// LayerFile is what CheckLayerFiles found of a layer on disk.
type LayerFile struct {
	Manifest string `json:"manifest"`
	Name     string `json:"name,omitempty"`
	Version  string `json:"implementation_version,omitempty"`
	// Library is the library's path, resolved against the manifest's
	// directory.
	Library string `json:"library,omitempty"`
	// OK: the manifest parses, names the layer, and the library is a
	// shared object for this machine exporting NegotiateSymbol.
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// CheckLayerFiles checks the manifest file and the library it names without
// loading the library (a Go layer must not be loaded into a Go process,
// docs/decisions/two-go-runtimes.md): the manifest parses and names wantName, the library
// exists, is an ELF shared object of this machine's architecture and
// exports vkNegotiateLoaderLayerInterfaceVersion.
func CheckLayerFiles(manifest, wantName string) LayerFile {
	lf := LayerFile{Manifest: manifest}
	data, err := os.ReadFile(manifest)
	if err != nil {
		lf.Error = err.Error()
		return lf
	}
	m, err := ParseManifest(data)
	if err != nil {
		lf.Error = fmt.Sprintf("%s: %v", manifest, err)
		return lf
	}
	lf.Name, lf.Version = m.Layer.Name, m.Layer.ImplementationVersion
	if m.Layer.Name != wantName {
		lf.Error = fmt.Sprintf("%s names layer %s, not %s", manifest, m.Layer.Name, wantName)
		return lf
	}
	lib := m.Layer.LibraryPath
	if !strings.Contains(lib, "/") {
		lf.Library = lib
		lf.Error = fmt.Sprintf("%s: library_path %q is searched in the system's library path; give a path relative to the manifest", manifest, lib)
		return lf
	}
	if !filepath.IsAbs(lib) {
		lib = filepath.Join(filepath.Dir(manifest), lib)
	}
	lf.Library = lib
	if err := checkLibrary(lib); err != nil {
		lf.Error = err.Error()
		return lf
	}
	lf.OK = true
	return lf
}

// machines maps GOARCH to the ELF machine a library must be built for.
var machines = map[string]elf.Machine{
	"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64, "386": elf.EM_386, "riscv64": elf.EM_RISCV,
	"ppc64le": elf.EM_PPC64, "s390x": elf.EM_S390, "loong64": elf.EM_LOONGARCH,
}

// checkLibrary opens lib as ELF and checks its type, machine and export.
func checkLibrary(lib string) error {
	if _, err := os.Stat(lib); err != nil {
		return fmt.Errorf("layer library %s: %w", lib, errors.Unwrap(err))
	}
	f, err := elf.Open(lib)
	if err != nil {
		return fmt.Errorf("layer library %s: not an ELF shared object (%v)", lib, err)
	}
	defer f.Close()
	if f.Type != elf.ET_DYN {
		return fmt.Errorf("layer library %s: not a shared object (%v)", lib, f.Type)
	}
	if want, ok := machines[runtime.GOARCH]; ok && f.Machine != want {
		return fmt.Errorf("layer library %s: built for %v, this machine is %v", lib, f.Machine, want)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return fmt.Errorf("layer library %s: %w", lib, err)
	}
	for _, s := range syms {
		if s.Name == NegotiateSymbol && s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			return nil
		}
	}
	return fmt.Errorf("layer library %s: does not export %s", lib, NegotiateSymbol)
}
