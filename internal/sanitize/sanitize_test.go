package sanitize

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, c := range []struct{ in, text, block string }{
		{"oob.comp", "oob.comp", "oob.comp"},
		{"héllo ✓ 日本", "héllo ✓ 日本", "héllo ✓ 日本"},
		{"\x1b[2Jclear", `\x1b[2Jclear`, `\x1b[2Jclear`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`, `\x1b]52;c;aGk=\x07`},
		{"a\u009b31mred\u009d0;t\u009c", `a\u009b31mred\u009d0;t\u009c`, `a\u009b31mred\u009d0;t\u009c`},
		{"x\u202egnp.exe", `x\u202egnp.exe`, `x\u202egnp.exe`},
		{"\u2066iso\u2069", `\u2066iso\u2069`, `\u2066iso\u2069`},
		{"tab\there\nline\r", `tab\there\nline\r`, "tab\there\nline\\r"},
		{"del\x7f nul\x00", `del\x7f nul\x00`, `del\x7f nul\x00`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `bad \xff\xfe utf8`},
		{"", "", ""},
	} {
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := Block(c.in); got != c.block {
			t.Errorf("Block(%q) = %q, want %q", c.in, got, c.block)
		}
		if Needed(c.in, false) != (c.text != c.in) || Needed(c.in, true) != (c.block != c.in) {
			t.Errorf("Needed(%q) disagrees", c.in)
		}
	}
}

func TestLines(t *testing.T) {
	clean := []string{"a", "b\tc"}
	if got := Lines(clean); &got[0] != &clean[0] {
		t.Error("clean lines were copied")
	}
	in := []string{"ok", "\x1b[H", "fine"}
	got := Lines(in)
	if got[0] != "ok" || got[1] != `\x1b[H` || got[2] != "fine" || in[1] != "\x1b[H" {
		t.Errorf("Lines = %q (input now %q)", got, in)
	}
}

// TestJSONSameValue: the escaped JSON holds the same value, and no C1
// control or bidi override is left raw.
func TestJSONSameValue(t *testing.T) {
	v := map[string]string{"name": "a\u009b2J\u009d52;\u202eb ✓", "plain": "x"}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	esc := JSON(raw)
	for _, r := range string(esc) {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
			t.Fatalf("raw %U left in %s", r, esc)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(esc, &back); err != nil || back["name"] != v["name"] || back["plain"] != "x" {
		t.Fatalf("escaped JSON reads %q, %v", back, err)
	}
	if clean := []byte(`{"a":"b"}`); &JSON(clean)[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
}

// FuzzText: whatever the input, Text's output is valid UTF-8 with no
// control character, and Block's has none but tab and line feed.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "\x1b[2J", "\u009b", "a\tb\nc", "\xff", "日本\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []struct {
			out   string
			block bool
		}{{Text(s), false}, {Block(s), true}} {
			if !utf8.ValidString(c.out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, c.out)
			}
			for _, r := range c.out {
				if dangerous(r, c.block) {
					t.Fatalf("%U left in %q (from %q)", r, c.out, s)
				}
			}
			if !strings.Contains(s, "\\") && !Needed(s, c.block) && c.out != s {
				t.Fatalf("a clean string changed: %q -> %q", s, c.out)
			}
		}
	})
}

func TestPictures(t *testing.T) {
	for in, want := range map[string]string{
		"plain ✓":                  "plain ✓",
		"\x1b]52;c;aGk=\x07":       "␛]52;c;aGk=␇",
		"tab\there\nline\x7f":      "tab here␊line␡",
		"c1\u009b bidi\u202e \xff": "c1\ufffd bidi\ufffd \ufffd",
	} {
		if got := Pictures(in); got != want {
			t.Errorf("Pictures(%q) = %q, want %q", in, got, want)
		}
	}
}
