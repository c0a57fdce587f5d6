package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestParseOnError: the three names in any case and with spaces, nothing
// else; the error lists the names.
func TestParseOnError(t *testing.T) {
	tests := []struct {
		in   string
		want OnError
		err  string
	}{
		{"skip", OnErrorSkip, ""},
		{"clamp", OnErrorClamp, ""},
		{"execute", OnErrorExecute, ""},
		{" Clamp\t", OnErrorClamp, ""},
		{"EXECUTE", OnErrorExecute, ""},
		{"", "", `"" is not a failed-access behaviour (use skip|clamp|execute)`},
		{"safe", "", `"safe" is not a failed-access behaviour (use skip|clamp|execute)`},
		{"skip,clamp", "", `"skip,clamp" is not a failed-access behaviour (use skip|clamp|execute)`},
	}
	for _, tt := range tests {
		got, err := ParseOnError(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("ParseOnError(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
	if OnErrorOrDefault("") != OnErrorSkip || OnErrorOrDefault(OnErrorExecute) != OnErrorExecute {
		t.Error("OnErrorOrDefault")
	}
	if OnErrors[0].Value != DefaultOnError {
		t.Errorf("the first behaviour is %q, the default %q", OnErrors[0].Value, DefaultOnError)
	}
}

// TestSiteOnError: each pass's test shader under each behaviour: every
// site says what its guard does (a clamp where the pass builds one, skip
// where it has no meaning, execute everywhere), the
// robust-only mode clamps without a report call, and each module passes
// spirv-val.
func TestSiteOnError(t *testing.T) {
	clamps := map[string]bool{"descriptor_index": true, "texel_buffer_oob": true, "buffer_oob": true} // passes
	clampFiles := map[string]bool{"descriptor_index": true, "descriptor_state": true, "texel_buffer": true, "buffer_oob": true}
	for _, name := range []string{"bda", "buffer_oob", "descriptor_index", "descriptor_state", "ray_query", "texel_buffer"} {
		env := "vulkan1.2"
		w := shadertest.Compile(t, "testdata/passes", name+".comp", "--target-env", env)
		for _, opt := range []Options{{OnError: OnErrorSkip}, {OnError: OnErrorClamp}, {OnError: OnErrorExecute}, {RobustOnly: true}} {
			opt.ShaderID, opt.DescriptorSet, opt.SizedElementChecks = 9, 7, true
			res, err := Instrument(w, opt)
			if err != nil || len(res.Sites) == 0 {
				t.Fatalf("%s %+v: %d sites, %v", name, opt, len(res.Sites), err)
			}
			asked := opt.OnError
			if opt.RobustOnly {
				asked = OnErrorClamp
			}
			clamped := 0
			for _, s := range res.Sites {
				want := asked
				if asked == OnErrorClamp && !clamps[s.Pass] {
					want = OnErrorSkip
				}
				if s.OnError == OnErrorClamp {
					clamped++
				}
				// A buffer site's p7 is what its clamp found, written where
				// it clamps; BufferNoClamp where it does not.
				if dyn := s.Record.Dynamic[7] != 0; s.Pass == "buffer_oob" &&
					(dyn != (s.OnError == OnErrorClamp) || !dyn && s.Record.Params[7] != BufferNoClamp) {
					t.Errorf("%s %+v: site %d (%s) does %q, its p7 dynamic %v static %#x", name, opt, s.ID, s.Pass, s.OnError, dyn, s.Record.Params[7])
				}
				// A plain binding's descriptor site has no index to clamp.
				if s.OnError != want && !(s.Pass == "descriptor_index" && want == OnErrorClamp && s.OnError == OnErrorSkip) {
					t.Errorf("%s %+v: site %d (%s, instruction %d) does %q, want %q", name, opt, s.ID, s.Pass, s.Instruction, s.OnError, want)
				}
			}
			if asked == OnErrorClamp && clampFiles[name] != (clamped > 0) {
				t.Errorf("%s %+v: %d sites clamp", name, opt, clamped)
			}
			dis, err := spirv.Disassemble(res.Words)
			if err != nil {
				t.Fatal(err)
			}
			if reports := strings.Count(dis, "OpFunctionCall %void %gpuav_report_"); opt.RobustOnly != (reports == 0) {
				t.Errorf("%s %+v: %d report calls", name, opt, reports)
			}
			validate(t, res.Words, env)
		}
	}
}

// TestClampFromTheRow: under on_error clamp, every code of every check that
// runs in shaders gets its outcome from its registry row: executes, noClamp
// (skipped, with the row's reason) or the row's clamp, which knows the
// code; none is left to "clamp is not built".
func TestClampFromTheRow(t *testing.T) {
	p := [RecordParams]uint32{0, 0, 9, 4, 8, 16, 0, 0}
	for i := range Checks {
		c := &Checks[i]
		if !c.InShaders() {
			continue // a command check's records are the layer's: no shader access
		}
		for _, rc := range c.Codes {
			o := FailedAccess(OnErrorClamp, rc.Code, p)
			if strings.HasPrefix(o.Reason, "clamp is not built") {
				t.Errorf("%s code %d: %q: give the row a clamp or a noClamp", c.ID, rc.Code, o.Reason)
				continue
			}
			switch {
			case c.executes != "", rc.Code == CodeBarrierWorkgroup, rc.Code == CodeBarrierSubgroup:
				continue // what happened is the record's, whatever on_error says
			case c.noClamp != "":
				if want := noMeaning(c.noClamp); o != want {
					t.Errorf("%s code %d: %+v, want the row's noClamp %+v", c.ID, rc.Code, o, want)
				}
			case c.clamp == nil:
				t.Errorf("%s: neither clamp, noClamp nor executes", c.ID)
			default:
				if want := c.clamp(rc.Code, p); want.Access == "" || o != want {
					t.Errorf("%s code %d: %+v, want the row's clamp %+v", c.ID, rc.Code, o, want)
				}
			}
		}
	}
}

// TestClampValues: the values on_error clamp moves each code's operand
// to, exactly, from the record's parameters.
func TestClampValues(t *testing.T) {
	neg := uint32(0xfffffffe) // -2
	for _, tc := range []struct {
		code CheckCode
		p    [RecordParams]uint32
		want Outcome
	}{
		{CodeDescriptorIndexOOB, [RecordParams]uint32{2: 9, 3: 4}, clamped(3)},
		{CodeDescriptorIndexOOB, [RecordParams]uint32{2: 9, 3: 0}, noMeaning("the array has no element")},
		{CodeDescriptorIndexOOB, [RecordParams]uint32{2: 9, 3: 4, 7: uint32(CodeDescriptorDestroyed)},
			Outcome{Access: AccessSkipped, Reason: "the element the index clamps to, 3, has a destroyed resource"}},
		{CodeDescriptorUninitialized, [RecordParams]uint32{}, noMeaning("the descriptor was never written")},
		{CodeDescriptorDestroyed, [RecordParams]uint32{}, noMeaning("the descriptor's resource was destroyed")},
		{CodeBufferOOB, [RecordParams]uint32{4: 16, 5: 64, 7: 48}, clamped(48)},
		{CodeBufferOOB, [RecordParams]uint32{4: 16, 5: 8, 7: BufferNoClamp},
			noMeaning("the 8-byte bound range holds no place for the 16-byte access")},
		{CodeTexelBufferOOB, [RecordParams]uint32{3: 20, 4: 8}, clamped(7)},
		{CodeTexelBufferOOB, [RecordParams]uint32{3: neg, 4: 8, 5: TexelSigned}, clamped(0)},
		{CodeTexelBufferOOB, [RecordParams]uint32{3: 20, 4: 0}, noMeaning("the view has no texel")},
		{CodeSanitizerDivideByZero, [RecordParams]uint32{}, clamped(1)},
		{CodeSanitizerDivideOverflow, [RecordParams]uint32{}, clamped(1)},
		{CodeSanitizerFloatDivideByZero, [RecordParams]uint32{}, noMeaning("a float divisor has no range to clamp into")},
		{CodeSanitizerImageGather, [RecordParams]uint32{2: 7}, clamped(3)},
		{CodeMeshVertices, [RecordParams]uint32{}, Outcome{Access: AccessClamped}},
		{CodeTraceRaySBTOffset, [RecordParams]uint32{2: 0x13}, clamped(3)},
		{CodeTraceRaySBTStride, [RecordParams]uint32{3: 0x25}, clamped(5)},
		{CodeTraceRayMissIndex, [RecordParams]uint32{4: 0x10007}, clamped(7)},
		{CodeHitKind, [RecordParams]uint32{}, noMeaning("a hit kind is a name, not an index")},
		{CodeTraceRayOrigin, [RecordParams]uint32{}, noMeaning("a ray's values and flags are not an index: the trace was not made")},
		{CodeBDAOOB, [RecordParams]uint32{}, noMeaning("the address is outside every buffer")},
	} {
		if got := FailedAccess(OnErrorClamp, tc.code, tc.p); got != tc.want {
			t.Errorf("code %d %v: %+v, want %+v", tc.code, tc.p, got, tc.want)
		}
	}
}
