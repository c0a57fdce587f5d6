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
