package gpuav

import "testing"

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
