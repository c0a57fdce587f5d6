package gpuav

import "testing"

// BenchmarkDecode decodes a full output buffer: 4096 records (the layer's
// per-command-buffer capacity), header included, each expanded from its
// site. It reports records/s.
func BenchmarkDecode(b *testing.B) {
	const n = 4096
	sites := []Site{{ID: 0, Instruction: 100, Checks: []string{CheckDescriptorIndexOOB},
		Record: dynamicRecord([RecordParams]uint32{0, 2}, -1, -1, 0, 1)}}
	table := func(uint32) ([]Site, uint32, bool) { return sites, 5, true }
	buf := make([]uint32, OutputHeaderWords+n*RecordWords)
	buf[OutputWrittenWord] = n
	for i := 0; i < n; i++ {
		r := buf[OutputHeaderWords+i*RecordWords:]
		r[RecordShaderIDWord] = 1
		r[RecordSiteWord] = uint32(CodeDescriptorIndexOOB) << RecordSiteBits
		r[2], r[3] = 4, 4
		r[RecordStage0Word] = uint32(i)
		r[RecordActionWord] = uint32(i / 64)
	}
	b.SetBytes(int64(4 * len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		out := Decode(buf, table)
		if len(out.Records) != n || out.Malformed != 0 || out.Records[n-1].StageWords[0] != n-1 {
			b.Fatalf("decoded %d records (%d malformed)", len(out.Records), out.Malformed)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}
