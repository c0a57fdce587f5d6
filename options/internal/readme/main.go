// Command readme writes the settings tables of the options table into
// README.md and layer/README.md, between options.TableBegin and
// options.TableEnd: go generate ./options.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gpuav-dbg/gpuav-dbg/options"
)

func main() {
	readme := flag.String("w", "README.md", "the README to rewrite")
	layer := flag.String("layer", "layer/README.md", "the layer's README to rewrite")
	flag.Parse()
	for path, table := range map[string]string{*readme: options.Markdown(), *layer: options.LayerMarkdown()} {
		if err := rewrite(path, table); err != nil {
			fmt.Fprintln(os.Stderr, "readme:", err)
			os.Exit(1)
		}
	}
}

func rewrite(path, table string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	out, err := options.ReplaceTable(string(b), table)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
