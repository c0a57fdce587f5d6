package gpuav

import "testing"

// BenchmarkDecode decodes a full output buffer: 4096 records (the layer's
// per-command-buffer capacity), header included. It reports records/s.
func BenchmarkDecode(b *testing.B) {
	const n = 4096
	buf := make([]uint32, OutputHeaderWords+n*RecordWords)
	buf[OutputWrittenWord] = n * RecordWords
	for i := 0; i < n; i++ {
		r := buf[OutputHeaderWords+i*RecordWords:]
		r[RecordSizeWord] = RecordWords
		r[RecordShaderIDWord] = 1
		r[RecordInstructionWord] = uint32(100 + i%7)
		r[RecordStageWord] = 5 // GLCompute
		r[RecordStage0Word] = uint32(i)
		r[RecordActionWord] = uint32(i / 64)
		r[RecordCheckWord] = uint32(CodeDescriptorIndexOOB)
		r[RecordParam0Word] = 4
	}
	b.SetBytes(int64(4 * len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		out := Decode(buf)
		if len(out.Records) != n || out.Malformed != 0 || out.Records[n-1].StageWords[0] != n-1 {
			b.Fatalf("decoded %d records (%d malformed)", len(out.Records), out.Malformed)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}
