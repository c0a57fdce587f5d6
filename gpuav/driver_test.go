package gpuav

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

func passNames(specs []*passSpec) []string {
	var names []string
	for _, p := range specs {
		names = append(names, p.name)
	}
	return names
}

// TestPassesFor: the passes of the enabled checks, once each, in registry
// order except where a pass must follow another.
func TestPassesFor(t *testing.T) {
	only := func(ids ...string) map[string]bool {
		m := map[string]bool{}
		for _, id := range ids {
			m[id] = true
		}
		return m
	}
	tests := []struct {
		name   string
		checks map[string]bool
		want   []string
	}{
		{"one descriptor check", only(CheckDescriptorDestroyed), []string{"descriptor_index"}},
		{"buffer alone", only(CheckBufferOOB), []string{"buffer_oob"}},
		{"ray and index", only(CheckRayQuery, CheckDescriptorIndexOOB), []string{"descriptor_index", "ray_query"}},
		{"none", only(), nil},
	}
	t.Run("all", func(t *testing.T) {
		// Every pass once; the shipped ones in this order (registry order,
		// buffer_oob and texel_buffer_oob after descriptor_index).
		got := passNames(passesFor(Options{}))
		var shipped []string
		seen := map[string]bool{}
		for _, name := range got {
			if seen[name] {
				t.Errorf("pass %s twice in %v", name, got)
			}
			seen[name] = true
			if slices.Contains([]string{"descriptor_index", "buffer_oob", "texel_buffer_oob", "bda", "ray_query"}, name) {
				shipped = append(shipped, name)
			}
		}
		if want := []string{"descriptor_index", "buffer_oob", "texel_buffer_oob", "bda", "ray_query"}; !slices.Equal(shipped, want) {
			t.Errorf("passes %v, want %v among them in this order", got, want)
		}
		for _, c := range Checks {
			if c.pass != nil && !seen[c.pass.name] {
				t.Errorf("check %s: pass %s does not run", c.ID, c.pass.name)
			}
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := passNames(passesFor(Options{Checks: tt.checks}))
			if !slices.Equal(got, tt.want) {
				t.Errorf("passes %v, want %v", got, tt.want)
			}
		})
	}
}

// TestOrderPasses: a pass runs after the passes it names, when they run.
func TestOrderPasses(t *testing.T) {
	a := &passSpec{name: "a"}
	b := &passSpec{name: "b", after: []string{"a"}}
	c := &passSpec{name: "c", after: []string{"b", "absent"}}
	tests := []struct {
		in   []*passSpec
		want []string
	}{
		{[]*passSpec{a, b, c}, []string{"a", "b", "c"}},
		{[]*passSpec{c, b, a}, []string{"a", "b", "c"}},
		{[]*passSpec{b, c}, []string{"b", "c"}},
		{[]*passSpec{c, a}, []string{"c", "a"}},
	}
	for _, tt := range tests {
		if got := passNames(orderPasses(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("order %v: %v, want %v", passNames(tt.in), got, tt.want)
		}
	}
	x := &passSpec{name: "x", after: []string{"y"}}
	y := &passSpec{name: "y", after: []string{"x"}}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "cycle") {
			t.Errorf("a cycle: recovered %v, want a panic naming the cycle", r)
		}
	}()
	orderPasses([]*passSpec{x, y})
}

// TestInvalidateAnalyses: after a pass, what it does not preserve is
// recomputed; what it preserves is the same value.
func TestInvalidateAnalyses(t *testing.T) {
	m, err := spirv.Parse(compile(t, "oob_compute.comp", "vulkan1.1"))
	if err != nil {
		t.Fatal(err)
	}
	a := &analyses{m: m}
	safe, same, sizes := a.safeIndex(), a.sameValues(), a.layoutSizes()
	if a.safeIndex() != safe || a.sameValues() != same || a.layoutSizes() != sizes {
		t.Fatal("an analysis was recomputed without a change")
	}
	a.invalidate(analysisLayoutSizes | analysisDefs)
	if a.layoutSizes() != sizes {
		t.Error("layout sizes recomputed though preserved")
	}
	if a.safeIndex() == safe || a.sameValues() == same {
		t.Error("safe index or same values kept though not preserved")
	}
}

// TestSiteTable: every guard is a row of Result.Sites with its pass, the
// original instruction and the checks it reports; a guard that reuses an
// earlier one's result reports none.
func TestSiteTable(t *testing.T) {
	w := compileFlags(t, "same_index_block.comp", "-g", "--target-env", "vulkan1.1", "-Os")
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7, Checks: map[string]bool{CheckDescriptorIndexOOB: true, CheckBufferOOB: true}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ChecksAdded != len(res.Sites) || len(res.Sites) == 0 {
		t.Fatalf("ChecksAdded %d, %d sites", res.ChecksAdded, len(res.Sites))
	}
	var reused, index, buffer int
	for i, s := range res.Sites {
		if s.ID != i || s.Instruction <= 0 {
			t.Errorf("site %d: %+v", i, s)
		}
		switch {
		case s.Pass == "descriptor_index" && len(s.Checks) == 0:
			reused++
		case s.Pass == "descriptor_index" && slices.Equal(s.Checks, []string{CheckDescriptorIndexOOB}):
			index++
		case s.Pass == "buffer_oob" && slices.Equal(s.Checks, []string{CheckBufferOOB}):
			buffer++
		default:
			t.Errorf("site %d: %+v", i, s)
		}
	}
	if index == 0 || reused == 0 || buffer == 0 {
		t.Errorf("%d index guards, %d reused, %d buffer guards; want each", index, reused, buffer)
	}
}
