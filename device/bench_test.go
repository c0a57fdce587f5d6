package device

import "testing"

// BenchmarkProbe measures one whole probe in this process: open the loader,
// list layers, create an instance and read every device.
func BenchmarkProbe(b *testing.B) {
	for b.Loop() {
		r, err := Probe()
		if err != nil || len(r.Devices) == 0 {
			b.Fatalf("%v %+v", err, r)
		}
	}
}
