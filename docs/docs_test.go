// Package docs holds the project's documentation; its test keeps the
// decision records and the links between documents sound.
package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, seen from this package's directory.
const root = ".."

// skipDirs are directories whose Markdown is not the project's own.
var skipDirs = map[string]bool{".git": true, "bin": true, "build": true, ".gl": true, "node_modules": true}

var (
	fence      = regexp.MustCompile("(?ms)^ {0,3}```.*?^ {0,3}```[^\n]*$")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	link       = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#* *$`)
)

// prose is the Markdown with code blocks and code spans removed: links and
// headings inside code are examples, not links.
func prose(md string) string {
	return inlineCode.ReplaceAllString(fence.ReplaceAllString(md, ""), "")
}

// links returns the link targets of a Markdown text.
func links(md string) []string {
	var out []string
	for _, m := range link.FindAllStringSubmatch(prose(md), -1) {
		out = append(out, m[1])
	}
	return out
}

// slug is GitHub's anchor for a heading: lower case, everything but
// letters, digits, spaces, hyphens and underscores dropped, spaces made
// hyphens.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// anchors returns the anchors of a Markdown text's headings, with GitHub's
// -1, -2 suffixes for repeated ones.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(md, ""), -1) {
		a := slug(m[1])
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"Whole scenes on lavapipe", "whole-scenes-on-lavapipe"},
		{"buffer_oob: hoisted range lookups", "buffer_oob-hoisted-range-lookups"},
		{"Same index value, one guard; linear-time splits", "same-index-value-one-guard-linear-time-splits"},
		{"lavapipe harness, every check on (1b16d10)", "lavapipe-harness-every-check-on-1b16d10"},
		{"Check functions compiled without `--no-link`", "check-functions-compiled-without---no-link"},
		{"Instrumentation (Go)", "instrumentation-go"},
	} {
		if got := slug(tc.title); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}

func TestLinksSkipCode(t *testing.T) {
	md := "See [a](a.md) and [`b`](b.md#x).\n`[c](c.md)` is code.\n" +
		"```markdown\n[d](d.md)\n```\n[e\ntext](e.md)\n[web](https://example.com)\n"
	want := []string{"a.md", "b.md#x", "e.md", "https://example.com"}
	if got := links(md); !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
	a := anchors("# T\n## Same\n## Same\n```\n# not a heading\n```\n")
	for _, want := range []string{"t", "same", "same-1"} {
		if !a[want] {
			t.Errorf("anchors lack %q: %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Errorf("a heading inside a code block counted: %v", a)
	}
}

// markdownFiles lists the repository's Markdown files, relative to root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing the Markdown files: %v", err)
	}
	return out
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return string(b)
}

// TestRelativeLinks: every relative link in the repository's Markdown names
// a file that exists and, with #anchor, a heading of that file.
func TestRelativeLinks(t *testing.T) {
	files := markdownFiles(t)
	if len(files) < 10 {
		t.Fatalf("found %d Markdown files under %s; is the test run from docs/?", len(files), root)
	}
	for _, f := range files {
		for _, l := range links(read(t, f)) {
			if strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") {
				continue
			}
			target, anchor, _ := strings.Cut(l, "#")
			path := f
			if target != "" {
				path = filepath.Join(filepath.Dir(f), target)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %q: %v", f, l, err)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(read(t, path))[anchor] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", f, l, path, anchor)
			}
		}
	}
}

// record is one decision record: its file's slug, title and status line.
type record struct{ slug, title, status string }

var supersededBy = regexp.MustCompile(`^superseded by \[([^\]]+)\]\(([a-z0-9-]+)\.md\)$`)

// records reads docs/decisions/*.md (but the index) and checks each starts
// with "# <Title>" and a valid "Status: " line.
func records(t *testing.T) map[string]record {
	t.Helper()
	paths, err := filepath.Glob("decisions/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no decision records in docs/decisions (%v)", err)
	}
	out := map[string]record{}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".md")
		if name == "README" {
			continue
		}
		lines := strings.SplitN(read(t, p), "\n", 3)
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "# ") || !strings.HasPrefix(lines[1], "Status: ") {
			t.Errorf("%s: want \"# <Title>\" then \"Status: ...\" on its first two lines", p)
			continue
		}
		out[name] = record{name, strings.TrimPrefix(lines[0], "# "), strings.TrimPrefix(lines[1], "Status: ")}
	}
	return out
}

// TestDecisionRecords: every record has a valid status, a superseded one
// names the title of a record that exists, and the index lists every record
// once, under its title, with the status the record has.
func TestDecisionRecords(t *testing.T) {
	recs := records(t)
	for _, r := range recs {
		switch r.status {
		case "accepted", "rejected", "parked (not built)":
		default:
			m := supersededBy.FindStringSubmatch(r.status)
			if m == nil {
				t.Errorf("%s.md: status %q: want accepted, rejected, parked (not built) or superseded by [<title>](<slug>.md)", r.slug, r.status)
				continue
			}
			if by, ok := recs[m[2]]; !ok || by.title != m[1] {
				t.Errorf("%s.md: superseded by %q (%s.md), which is not a record with that title", r.slug, m[1], m[2])
			}
		}
	}
	index := read(t, "decisions/README.md")
	entry := regexp.MustCompile(`(?m)^- \[(.+)\]\(([a-z0-9-]+)\.md\): (.+)$`)
	listed := map[string]int{}
	for _, m := range entry.FindAllStringSubmatch(index, -1) {
		title, name, status := m[1], m[2], m[3]
		listed[name]++
		r, ok := recs[name]
		if !ok {
			t.Errorf("decisions/README.md lists %s.md, which does not exist", name)
			continue
		}
		if title != r.title || status != r.status {
			t.Errorf("decisions/README.md lists %s.md as %q: %s; the record says %q: %s", name, title, status, r.title, r.status)
		}
	}
	for name := range recs {
		if listed[name] != 1 {
			t.Errorf("decisions/README.md lists %s.md %d times, want once", name, listed[name])
		}
	}
}
