package device

import (
	"testing"
)

// FuzzParseReport: any bytes give a report or an error, never a panic, and
// a report has a name and a feature map for every device.
func FuzzParseReport(f *testing.F) {
	f.Add([]byte(`{"version":1,"loader":{"found":true,"library":"libvulkan.so.1"},"devices":[{"name":"gpu","features":{"rayQuery":true}}]}`))
	f.Add([]byte(`{"version":1,"devices":[null]}`))
	f.Add([]byte(`{"version":1,"devices":[{"name":""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReport(data)
		if err != nil {
			return
		}
		for _, d := range r.Devices {
			if d == nil || d.Name == "" || d.Features == nil {
				t.Fatalf("accepted %+v", d)
			}
			Assess(d, []string{"descriptor_index_oob", "ray_query", "x"})
		}
	})
}

// FuzzParseManifest: any bytes give a manifest with a name and a library,
// or an error.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"file_format_version":"1.2.0","layer":{"name":"L","library_path":"./l.so"}}`))
	f.Add([]byte(`{"layer":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err == nil && (m.Layer.Name == "" || m.Layer.LibraryPath == "") {
			t.Fatalf("accepted %+v", m)
		}
	})
}
