package options

//go:generate go run ./internal/readme -w ../README.md -layer ../layer/README.md

import (
	"fmt"
	"strings"
)

// README markers: a settings table lies between them.
const (
	TableBegin = "<!-- options:begin (go generate ./options) -->"
	TableEnd   = "<!-- options:end -->"
)

// Markdown is README.md's settings table: the README rows (the layer's,
// then the launcher's), with the checks' variable as one row.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| variable | key | flag | default | what it does |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| `%s<ID>` | `%s<id>` | `--check ID=on\\|off` | the check's | %s |\n",
		CheckEnv(""), CheckKeyPrefix, "one per check of the list above, in upper case")
	for _, o := range With(README) {
		if o.TestOnly {
			continue
		}
		key := ""
		if o.HasKey() {
			key = "`" + o.Key + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", o.Env, key, o.flagText(), o.defaultText(), cell(o.Help))
	}
	return b.String()
}

// LayerMarkdown is layer/README.md's settings table: every layer row,
// the test hooks marked.
func LayerMarkdown() string {
	var b strings.Builder
	b.WriteString("| variable | key | kind | default | meaning |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| `%s<ID>` | `%s<id>` | bool | the check's default (`gpuav.Checks`) | %s |\n",
		CheckEnv(""), CheckKeyPrefix, "one per check of the registry, upper case")
	for _, o := range Of(Layer) {
		if strings.HasPrefix(o.Key, CheckKeyPrefix) {
			continue
		}
		key, help := "", cell(o.Help)
		if o.HasKey() {
			key = "`" + o.Key + "`"
		}
		if o.TestOnly {
			help = "tests only (not in the manifest): " + help
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", o.Env, key, o.Kind, o.defaultText(), help)
	}
	return b.String()
}

// flagText is the row's flag as the table shows it.
func (o *Option) flagText() string {
	if o.Flag == "" {
		return ""
	}
	s := "--" + o.Flag
	if o.FlagArg != "" {
		s += " " + o.FlagArg
	}
	return "`" + strings.ReplaceAll(s, "|", "\\|") + "`"
}

// defaultText is the row's default as the tables show it.
func (o *Option) defaultText() string {
	if o.Default == "" {
		return "unset"
	}
	return "`" + o.Default + "`"
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// ReplaceTable returns text with what lies between TableBegin and TableEnd
// replaced by table.
func ReplaceTable(text, table string) (string, error) {
	return ReplaceBetween(text, TableBegin, TableEnd, table)
}

// ReplaceBetween returns text with what lies between the markers begin
// and end replaced by table.
func ReplaceBetween(text, begin, end, table string) (string, error) {
	i := strings.Index(text, begin)
	j := strings.Index(text, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("no %q … %q block", begin, end)
	}
	return text[:i+len(begin)] + "\n" + table + text[j:], nil
}
