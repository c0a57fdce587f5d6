package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// printfSiteLines prints every line of the run's Printf messages as
// "CB #ACTION ACTION PIPELINE model=M stage=W0,W1,W2 args=A,B", sorted:
// the command buffer and the pipeline by their debug names (pipeline 0:
// shader objects), the stage words as floats for a fragment shader.
func printfSiteLines(t *testing.T, r result) []string {
	t.Helper()
	name := map[uint64]string{0: "0"}
	for _, n := range all[wire.Name](r) {
		name[n.Handle] = n.Name
	}
	var lines []string
	for _, m := range all[wire.Printf](r) {
		if m.Lost != 0 {
			t.Errorf("command buffer %s lost %d printf lines", name[m.CommandBuffer], m.Lost)
		}
		for _, s := range m.Sites {
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			args := make([]uint32, s.Args)
			for i := range s.Count() {
				w := s.Line(i, args)
				stage := fmt.Sprintf("%d,%d,%d", w[0], w[1], w[2])
				if s.Stage == gpuav.ModelFragment {
					stage = fmt.Sprintf("%v,%v,%d", math.Float32frombits(w[0]), math.Float32frombits(w[1]), w[2])
				}
				lines = append(lines, fmt.Sprintf("%s #%d %s %s model=%d stage=%s args=%s", name[m.CommandBuffer],
					s.ActionIndex, s.Action, name[s.Pipeline], s.Stage, stage, strings.Trim(fmt.Sprint(args), "[]")))
			}
		}
	}
	slices.Sort(lines)
	return lines
}

// drawLines are the lines of one draw of multi's printf shaders at
// action idx (printf_fullscreen.vert, printf_store.frag over the 4x4
// target, push constant idx) of command buffer cb and pipeline pipe.
func drawLines(cb string, action int, pipe string, idx int) []string {
	var l []string
	for v := range 3 {
		l = append(l, fmt.Sprintf("%s #%d vkCmdDraw %s model=0 stage=%d,0,0 args=%d", cb, action, pipe, v, v))
	}
	for y := range 4 {
		for x := range 4 {
			l = append(l, fmt.Sprintf("%s #%d vkCmdDraw %s model=4 stage=%v,%v,0 args=%d %d %d", cb, action, pipe,
				float64(x)+0.5, float64(y)+0.5, x, y, idx))
		}
	}
	return l
}

// dispatchLines are the lines of one dispatch of printf_compute.comp (4
// invocations, push constant idx).
func dispatchLines(cb string, action int, pipe string, idx int) []string {
	var l []string
	for x := range 4 {
		l = append(l, fmt.Sprintf("%s #%d vkCmdDispatch %s model=5 stage=%d,0,0 args=%d %d", cb, action, pipe, x, x, idx))
	}
	return l
}

// TestPrintfPipelineKinds: debugPrintfEXT prints, with the stage words
// and the values of every invocation, attributed to its command buffer,
// action and pipeline, from every kind of shader the layer instruments
// besides the plain pipelines of the e2e printf tests: a compute shader
// object (pipeline 0) between dispatches of a pipeline, shader objects
// the app made in the same run from the binary the layer handed out,
// vertex and fragment shader objects beside a dynamic-rendering
// pipeline, and a graphics pipeline linked from libraries (multi's
// shaderobj, shaderobj-render and gpl modes with printing shaders).
func TestPrintfPipelineKinds(t *testing.T) {
	setupMulti(t)
	shaders := []string{
		"--comp", filepath.Join(fixture.dir, "printf_compute.spv"),
		"--vert", filepath.Join(fixture.dir, "printf_fullscreen.vert.spv"),
		"--frag", filepath.Join(fixture.dir, "printf_store.frag.spv"),
	}
	cases := []struct {
		mode string
		want [][]string
	}{
		// cmd-0: the shader object with idx 3, the pipeline with 4, the
		// shader object with 5; then each of two shaders made from its
		// binary, in a cmd-binary: idx 1, then 3.
		{"shaderobj", [][]string{dispatchLines("cmd-0", 0, "0", 3), dispatchLines("cmd-0", 1, "oob-compute", 4),
			dispatchLines("cmd-0", 2, "0", 5), dispatchLines("cmd-binary", 0, "0", 1), dispatchLines("cmd-binary", 1, "0", 3),
			dispatchLines("cmd-binary", 0, "0", 1), dispatchLines("cmd-binary", 1, "0", 3)}},
		// The shader objects with idx 3, then dyn-pipeline with 4.
		{"shaderobj-render", [][]string{drawLines("cmd-0", 0, "0", 3), drawLines("cmd-0", 1, "dyn-pipeline", 4)}},
		{"gpl", [][]string{drawLines("cmd-0", 0, "gpl-pipeline", 3)}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			r := runMulti(t, true, nil, tc.mode, shaders...)
			got := printfSiteLines(t, r)
			want := slices.Concat(tc.want...)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%d printf lines:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
			}
		})
	}
}
