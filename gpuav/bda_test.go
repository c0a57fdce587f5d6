package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// bdaSite is what one guarded access passes to the check functions.
type bdaSite struct {
	size, flags uint32
}

// bdaSites lists, in module order, the size given to gpuav_bda_check and
// the flags given to gpuav_report_bda by every guarded access.
func bdaSites(t *testing.T, words []uint32) []bdaSite {
	t.Helper()
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	var sizes, flags []uint32
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() != spirv.OpFunctionCall {
					continue
				}
				name := m.Name(in.Words[3])
				switch {
				case strings.HasPrefix(name, "gpuav_bda_check("):
					v, ok := m.ConstantValue(in.Words[5])
					if !ok {
						t.Fatalf("gpuav_bda_check size is not a constant")
					}
					sizes = append(sizes, v)
				case strings.HasPrefix(name, "gpuav_report_bda("):
					v, ok := m.ConstantValue(in.Words[len(in.Words)-1])
					if !ok {
						t.Fatalf("gpuav_report_bda flags are not a constant")
					}
					flags = append(flags, v)
				}
			}
		}
	}
	if len(sizes) != len(flags) {
		t.Fatalf("%d checks but %d reports", len(sizes), len(flags))
	}
	var out []bdaSite
	for i := range sizes {
		out = append(out, bdaSite{sizes[i], flags[i]})
	}
	return out
}

// TestInstrumentBDA: every load, store and atomic through a
// PhysicalStorageBuffer pointer gets a check with the exact access size,
// and the result passes spirv-val, with and without Int64 in the module.
func TestInstrumentBDA(t *testing.T) {
	const (
		r  = 0
		w  = BDAWrite
		at = BDAWrite | BDAAtomic
		st = BDAStruct
	)
	bdaComp := []bdaSite{{4, r}, {4, w}, {4, at}, {60, st}, {8, r}, {4, w}}
	tests := []struct {
		shader, env, debug string
		int64              bool
		want               []bdaSite
		warn               string
		addsInt64          bool
	}{
		{shader: "bda.comp", env: "vulkan1.2", debug: "-g", want: bdaComp},
		{shader: "bda.comp", env: "vulkan1.3", debug: "-g", want: bdaComp}, // glslang 12 -gVS emits invalid debug info for buffer references
		{shader: "bda.comp", env: "vulkan1.1", debug: "-g", int64: true, want: bdaComp, addsInt64: true},
		{shader: "bda.comp", env: "vulkan1.1", debug: "-g", warn: "needs Int64 or SPIR-V 1.5"},
		{shader: "bda_int64.comp", env: "vulkan1.1", debug: "-g", want: []bdaSite{{16, r}, {16, w}, {24, r}, {16, w}}},
		{shader: "bda_int64.comp", env: "vulkan1.3", debug: "-g", want: []bdaSite{{16, r}, {16, w}, {24, r}, {16, w}}},
	}
	for _, tt := range tests {
		t.Run(tt.shader+"/"+tt.env+tt.debug, func(t *testing.T) {
			src := compileFlags(t, tt.shader, tt.debug, "--target-env", tt.env)
			orig, _ := spirv.Parse(append([]uint32(nil), src...))
			res, err := Instrument(src, Options{ShaderID: 3, DescriptorSet: 7, Int64: tt.int64, Checks: map[string]bool{CheckBDAOOB: true}})
			if err != nil {
				t.Fatal(err)
			}
			if tt.warn != "" {
				if res.Instrumented || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], tt.warn) {
					t.Fatalf("instrumented %v, warnings %q; want none added and a warning %q", res.Instrumented, res.Warnings, tt.warn)
				}
				return
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			if res.ChecksAdded != len(tt.want) {
				t.Errorf("ChecksAdded = %d, want %d", res.ChecksAdded, len(tt.want))
			}
			validate(t, res.Words, tt.env)
			got := bdaSites(t, res.Words)
			if len(got) != len(tt.want) {
				t.Fatalf("sites %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("site %d: size %d flags %#x, want size %d flags %#x", i, got[i].size, got[i].flags, tt.want[i].size, tt.want[i].flags)
				}
			}
			m, _ := spirv.Parse(res.Words)
			if had, has := orig.HasCapability(spirv.CapabilityInt64), m.HasCapability(spirv.CapabilityInt64); has != (had || tt.addsInt64) {
				t.Errorf("Int64 capability: had %v, has %v, want added %v", had, has, tt.addsInt64)
			}
		})
	}
}

// TestInstrumentBDALeavesLogicalModules: a module without
// PhysicalStorageBuffer64 addressing is not touched by the check.
func TestInstrumentBDALeavesLogicalModules(t *testing.T) {
	src := compile(t, "oob_compute.comp", "vulkan1.2")
	res, err := Instrument(src, Options{Checks: map[string]bool{CheckBDAOOB: true}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Instrumented || res.ChecksAdded != 0 {
		t.Fatalf("instrumented a Logical module: %d checks", res.ChecksAdded)
	}
}

// TestDescribeBDA: the message, VUID and values of a bda_oob record.
func TestDescribeBDA(t *testing.T) {
	tests := []struct {
		p    [RecordParams]uint32
		msg  string
		near *BDABuffer
	}{
		{[RecordParams]uint32{0x1010, 0x7, 4, BDAWrite | BDANearest, 0x1000, 0x7, 16},
			"Out of bounds access: 4 bytes written at buffer device address 0x700001010, past the nearest buffer below it, [0x700001000, 0x700001010) (16 bytes).",
			&BDABuffer{0x700001000, 16}},
		{[RecordParams]uint32{0x0ffc, 0, 60, BDAStruct | BDANearest, 0x1000, 0, 256},
			"Out of bounds access: 60 bytes read at buffer device address 0xffc, below every buffer; the lowest is [0x1000, 0x1100) (256 bytes). The access is a whole-struct load or store, though the source may use only some members.",
			&BDABuffer{0x1000, 256}},
		{[RecordParams]uint32{0x20, 0, 8, BDAWrite | BDAAtomic},
			"Out of bounds access: 8 bytes written at buffer device address 0x20, and the app obtained no buffer device address.", nil},
	}
	for i, tt := range tests {
		d := Describe(CodeBDAOOB, tt.p)
		if d.Check != CheckBDAOOB || d.VUID("vkCmdDispatch") != "VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819" {
			t.Errorf("%d: check %q VUID %q", i, d.Check, d.VUID("vkCmdDispatch"))
		}
		if d.Message != tt.msg {
			t.Errorf("%d: message\n%s\nwant\n%s", i, d.Message, tt.msg)
		}
		if d.BDA == nil || d.BDA.Size != tt.p[2] || d.BDA.Address != uint64(tt.p[0])|uint64(tt.p[1])<<32 {
			t.Fatalf("%d: values %+v", i, d.BDA)
		}
		if (d.BDA.Nearest == nil) != (tt.near == nil) || tt.near != nil && *d.BDA.Nearest != *tt.near {
			t.Errorf("%d: nearest %+v, want %+v", i, d.BDA.Nearest, tt.near)
		}
	}
}
