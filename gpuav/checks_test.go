package gpuav

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRegistry: every check has what the rest of the project reads of it,
// and no two checks share an id or a record code.
func TestRegistry(t *testing.T) {
	glsl := ""
	files, err := filepath.Glob("shaders/*.glsl")
	if err != nil || len(files) == 0 {
		t.Fatalf("shaders/*.glsl: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		glsl += string(b)
	}
	ids := map[string]bool{}
	codes := map[CheckCode]string{}
	for _, c := range Checks {
		if ids[c.ID] || c.ID == "" || c.ID != strings.ToLower(c.ID) {
			t.Errorf("check id %q: empty, upper case or twice", c.ID)
		}
		ids[c.ID] = true
		if c.Title == "" || c.Help == "" || strings.Contains(c.Help, "\n") || c.describe == nil || (c.pass == nil && !c.Command) || len(c.Codes) == 0 {
			t.Errorf("check %s: title %q, help %q, describe %v, pass %v, command %v, %d codes", c.ID, c.Title, c.Help, c.describe != nil, c.pass != nil, c.Command, len(c.Codes))
		}
		for _, rc := range c.Codes {
			if other, dup := codes[rc.Code]; dup {
				t.Errorf("code %d of %s is also %s's", rc.Code, c.ID, other)
			}
			codes[rc.Code] = c.ID
			if c.Command && !slices.Contains(PrepassConstants, Constant{"CODE_" + rc.GLSL, uint32(rc.Code)}) {
				t.Errorf("check %s: code %d is not CODE_%s of PrepassConstants (the layer's C and pre-pass name it so)", c.ID, rc.Code, rc.GLSL)
			}
			if c.pass != nil && !strings.Contains(glsl, "GPUAV_CODE_"+rc.GLSL) {
				t.Errorf("check %s: no check function writes GPUAV_CODE_%s", c.ID, rc.GLSL)
			}
			if got := rc.Code.CheckID(); got != c.ID {
				t.Errorf("code %d: CheckID %q, want %q", rc.Code, got, c.ID)
			}
		}
	}
	if got := CheckCode(999).CheckID(); got != "unknown_check_999" {
		t.Errorf("unknown code: %q", got)
	}
	if c := CheckByID("no_such_check"); c != nil {
		t.Errorf("CheckByID of an unknown id: %+v", c)
	}
}

// TestHelpUnder: a check's help in a run that clamped or executed failed
// accesses says nothing of skipping them (its skipWords are in its Help
// and cover every such phrase), and under skip it is Help itself.
func TestHelpUnder(t *testing.T) {
	skipWords := []string{"skipped", "skips", "yield", "zeroes", "read component 0", "reads zeros", "clamped the counts", "computed nmin"}
	for _, c := range Checks {
		for _, w := range c.skipWords {
			if !strings.Contains(c.Help, w) {
				t.Errorf("%s: skip words %q are not in its help %q", c.ID, w, c.Help)
			}
		}
		if got := c.HelpUnder(OnErrorSkip); got != c.Help {
			t.Errorf("%s under skip: %q", c.ID, got)
		}
		got := strings.ToLower(c.HelpUnder(OnErrorExecute))
		for _, w := range skipWords {
			if strings.Contains(got, w) {
				t.Errorf("%s under execute still says %q: %q", c.ID, w, got)
			}
		}
		if strings.Contains(got, "  ") || strings.Contains(got, " .") || !strings.HasSuffix(got, ".") {
			t.Errorf("%s under execute: %q", c.ID, got)
		}
	}
}

// TestRegistryLists: the ids users already have are a contract (settings,
// reports, scripts): they come first, in this order; the lists are the
// registry's, and every check is on by default.
func TestRegistryLists(t *testing.T) {
	shipped := []string{"descriptor_index_oob", "descriptor_uninitialized", "descriptor_destroyed", "buffer_oob",
		"texel_buffer_oob", "bda_oob", "ray_query"}
	if len(AllChecks) < len(shipped) || !slices.Equal(AllChecks[:len(shipped)], shipped) {
		t.Errorf("AllChecks %v, want it to start with %v", AllChecks, shipped)
	}
	var all, defaults []string
	for _, c := range Checks {
		all = append(all, c.ID)
		if c.Default {
			defaults = append(defaults, c.ID)
		}
	}
	if !slices.Equal(AllChecks, all) || !slices.Equal(DefaultChecks, defaults) {
		t.Errorf("AllChecks %v and DefaultChecks %v are not the registry's %v and %v", AllChecks, DefaultChecks, all, defaults)
	}
	// The defaults are every check (docs/decisions/cheap-checks.md) but
	// the sanitizer's float checks that clean real shaders trip or that no
	// analysis can prove (docs/decisions/shader-sanitizer.md).
	optIn := []string{CheckSanitizerPow, CheckSanitizerMinMax}
	want := slices.DeleteFunc(slices.Clone(AllChecks), func(id string) bool { return slices.Contains(optIn, id) })
	if !slices.Equal(DefaultChecks, want) {
		t.Errorf("DefaultChecks %v, want %v", DefaultChecks, want)
	}
}

// TestDescribeEveryCode: every code of the registry describes as its check,
// with a message and a VUID (but loop_budget's: no rule of the
// specification limits a loop).
func TestDescribeEveryCode(t *testing.T) {
	// The command checks' VUIDs depend on the command.
	actions := map[CheckCode]string{CodeIndexBufferOOB: "vkCmdDrawIndexed", CodeVertexFetchOOB: "vkCmdDraw",
		CodeIndirectDrawCount: "vkCmdDrawIndirectCount", CodeIndirectBufferOverrun: "vkCmdDrawIndirect"}
	for _, c := range Checks {
		for _, rc := range c.Codes {
			d := Describe(rc.Code, [RecordParams]uint32{1, 2, 3, 4, 5, 6, 7, 8})
			action := "vkCmdDispatch"
			if a, ok := actions[rc.Code]; ok {
				action = a
			}
			if d.Check != c.ID || d.Message == "" || (d.VUID(action) == "") != (c.ID == CheckLoopBudget) {
				t.Errorf("code %d (%s): %+v", rc.Code, c.ID, d)
			}
		}
	}
	d := Describe(999, [RecordParams]uint32{1})
	if d.Check != "unknown_check_999" || d.Message != "check code 999 with parameters [1 0 0 0 0 0 0 0]" {
		t.Errorf("unknown code: %+v", d)
	}
}
