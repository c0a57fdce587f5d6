package source

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/themes"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

func computeDoc() Doc {
	return DocFor(fixture.Session(), fixture.Compute())
}

func TestDocFor(t *testing.T) {
	d := computeDoc()
	if d.File != fixture.ComputeFile || len(d.Lines) != 10 || d.First != 1 || d.Mark != 9 || d.Column != 5 {
		t.Fatalf("compute doc = %+v", d)
	}
	d = DocFor(fixture.Session(), fixture.Fragment())
	if len(d.Lines) != 1 || d.Lines[0] != fixture.FragmentLine || d.First != 9 || d.Mark != 9 || d.Column != 13 {
		t.Fatalf("fragment doc = %+v", d)
	}
	// Sources that do not reach the line: fall back to the line's text.
	s := fixture.Session()
	s.Sources[session.SourceKey{ShaderID: 1, File: fixture.ComputeFile}] = fixture.ComputeSource[:3]
	if d = DocFor(s, fixture.Compute()); len(d.Lines) != 1 || d.First != 9 {
		t.Fatalf("short sources: doc = %+v", d)
	}
	g := fixture.Compute()
	g.Source = nil
	if d = DocFor(s, g); !d.Empty() || !strings.Contains(d.Note, "no debug info") {
		t.Fatalf("no source: doc = %+v", d)
	}
	if d.Location() != "" || computeDoc().Location() != "oob_compute.comp:9:5" {
		t.Fatalf("Location() = %q, %q", d.Location(), computeDoc().Location())
	}
}

func TestLexer(t *testing.T) {
	for _, tc := range []struct{ file, lang, want string }{
		{"a.comp", "", "GLSL"},
		{"a.vert", "", "GLSL"},
		{"a.frag", "", "GLSL"},
		{"a.geom", "", "GLSL"},
		{"a.tesc", "", "GLSL"},
		{"a.tese", "", "GLSL"},
		{"a.mesh", "", "GLSL"},
		{"a.task", "", "GLSL"},
		{"a.rgen", "", "GLSL"},
		{"a.rchit", "", "GLSL"},
		{"a.rmiss", "", "GLSL"},
		{"a.rahit", "", "GLSL"},
		{"a.rint", "", "GLSL"},
		{"a.rcall", "", "GLSL"},
		{"A.GLSL", "", "GLSL"},
		{"a.hlsl", "", "HLSL"},
		{"shader", "hlsl", "HLSL"},
		{"shader", "glsl", "GLSL"},
		{"a.txt", "", "plaintext"},
		{"", "", "plaintext"},
	} {
		if got := Lexer(tc.file, tc.lang).Config().Name; got != tc.want {
			t.Errorf("Lexer(%q, %q) = %s, want %s", tc.file, tc.lang, got, tc.want)
		}
	}
}

func TestExpandTabs(t *testing.T) {
	if got := ExpandTabs("\tx\ty"); got != "    x   y" {
		t.Fatalf("ExpandTabs = %q", got)
	}
}

func TestHighlightKeepsText(t *testing.T) {
	d := computeDoc()
	hl := Highlight(d)
	if len(hl) != len(d.Lines) {
		t.Fatalf("%d lines highlighted, want %d", len(hl), len(d.Lines))
	}
	for i, toks := range hl {
		var b strings.Builder
		for _, tk := range toks {
			b.WriteString(tk.Value)
		}
		if b.String() != d.Lines[i] {
			t.Errorf("line %d: tokens give %q, want %q", i+1, b.String(), d.Lines[i])
		}
	}
	// The lexer is GLSL: "void" is a keyword type, not text.
	if hl[5][0].Value != "void" || hl[5][0].Type.String() == "Text" {
		t.Errorf("line 6 starts with %v", hl[5][0])
	}
}

// The whole file, 8 rows: the marked line is centred.
func TestRenderCompute(t *testing.T) {
	d := computeDoc()
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), d, CenterTop(d, 8), 0, 60, 8)))
}

// Only the offending line is known.
func TestRenderFragmentLine(t *testing.T) {
	d := DocFor(fixture.Session(), fixture.Fragment())
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), d, CenterTop(d, 6), 0, 50, 6)))
}

// Narrower than the code: lines are cut with an ellipsis.
func TestRenderNarrow(t *testing.T) {
	d := computeDoc()
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), d, CenterTop(d, 5), 0, 30, 5)))
}

// Colours downsampled to ASCII: only the marker, bold and caret remain.
func TestRenderColorDownsampled(t *testing.T) {
	th, _ := themes.Get(themes.Dark)
	d := computeDoc()
	fixture.Golden(t, fixture.ASCII(Render(common.NewStyles(th), d, CenterTop(d, 5), 0, 50, 5)))
}

func TestRenderNoSource(t *testing.T) {
	g := fixture.Compute()
	g.Source = nil
	fixture.Golden(t, fixture.ASCII(Render(fixture.Styles(), DocFor(nil, g), 0, 0, 40, 5)))
}

func TestCenterTop(t *testing.T) {
	d := computeDoc() // 10 lines + caret row = 11 rows, mark at index 8
	for _, tc := range []struct{ h, want int }{
		{3, 7}, {5, 6}, {8, 3}, {11, 0}, {20, 0},
	} {
		if got := CenterTop(d, tc.h); got != tc.want {
			t.Errorf("CenterTop(h=%d) = %d, want %d", tc.h, got, tc.want)
		}
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// The marked line keeps its background across ALL its cells: every token
// (and the gutter and the padding) is preceded by an SGR sequence that sets
// the mark background. chroma's terminal formatter resets after each token,
// which is what this guards against.
func TestMarkedLineBackgroundSpansAllTokens(t *testing.T) {
	for _, name := range themes.Names() {
		t.Run(name, func(t *testing.T) {
			th, _ := themes.Get(name)
			st := common.NewStyles(th)
			d := computeDoc()
			out := Render(st, d, 0, 0, 60, 11)
			var marked string
			for _, l := range common.Lines(out) {
				if strings.Contains(ansi.Strip(l), MarkerGlyph) {
					marked = l
				}
			}
			if marked == "" {
				t.Fatalf("no marked line in:\n%s", out)
			}
			r, g, b, _ := th.MarkBg.RGBA()
			bg := regexp.MustCompile(fmt.Sprintf(`48;2;%d;%d;%d(;|m)`, r>>8, g>>8, b>>8))
			// Split the line into runs of text, each with the SGR sequence
			// that precedes it.
			locs := sgr.FindAllStringIndex(marked, -1)
			if len(locs) == 0 {
				t.Fatalf("marked line has no SGR sequences: %q", marked)
			}
			if locs[0][0] != 0 {
				t.Fatalf("marked line starts with unstyled text: %q", marked)
			}
			texts := 0
			for i, loc := range locs {
				end := len(marked)
				if i+1 < len(locs) {
					end = locs[i+1][0]
				}
				text := marked[loc[1]:end]
				if text == "" {
					continue
				}
				texts++
				seq := marked[loc[0]:loc[1]]
				if !bg.MatchString(seq) {
					t.Errorf("text %q follows %q, which does not set the mark background", text, seq)
				}
			}
			// Every token of line 9 was seen as a run of its own.
			for _, tk := range Highlight(d)[8] {
				if strings.TrimSpace(tk.Value) != "" && !strings.Contains(marked, tk.Value) {
					t.Errorf("token %q missing from the marked line", tk.Value)
				}
			}
			if texts < len(Highlight(d)[8]) {
				t.Errorf("only %d styled runs for %d tokens", texts, len(Highlight(d)[8]))
			}
			// The padding reaches the right edge.
			if w := ansi.StringWidth(marked); w != 60 {
				t.Errorf("marked line is %d cells wide, want 60", w)
			}
		})
	}
}

func TestModelScrollAndRecenter(t *testing.T) {
	m := New(fixture.Common())
	m.SetSize(60, 5)
	m.SetDoc(computeDoc(), true)
	if m.Top() != 6 {
		t.Fatalf("top %d, want 6 (line 9 centred)", m.Top())
	}
	m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"})
	if m.Top() != 4 {
		t.Fatalf("top %d after kk, want 4", m.Top())
	}
	m.SetDoc(computeDoc(), false) // same doc from a new snapshot: scroll kept
	if m.Top() != 4 {
		t.Fatalf("top %d after refresh, want 4", m.Top())
	}
	m.SetDoc(computeDoc(), true) // same doc, new selection: centred
	if m.Top() != 6 {
		t.Fatalf("top %d after a new selection, want 6", m.Top())
	}
	m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	if m.Top() != 6 {
		t.Fatalf("top %d after G, want 6", m.Top())
	}
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	if m.Top() != 0 {
		t.Fatalf("top %d after g, want 0", m.Top())
	}
	m.SetSize(60, 3) // a resize centres again
	if m.Top() != 7 {
		t.Fatalf("top %d after resize, want 7", m.Top())
	}
	if m.Title() != "Source oob_compute.comp:9:5" {
		t.Fatalf("title %q", m.Title())
	}
}
