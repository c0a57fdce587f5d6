// Command readme writes the settings tables of the options table into
// README.md and layer/README.md, between options.TableBegin and
// options.TableEnd, and the command line's flag table (options.Flags) into
// README.md between options.FlagTableBegin and options.FlagTableEnd: go
// generate ./options.
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
	for _, w := range []struct{ path, begin, end, table string }{
		{*readme, options.TableBegin, options.TableEnd, options.Markdown()},
		{*readme, options.FlagTableBegin, options.FlagTableEnd, options.FlagMarkdown()},
		{*layer, options.TableBegin, options.TableEnd, options.LayerMarkdown()},
	} {
		if err := rewrite(w.path, w.begin, w.end, w.table); err != nil {
			fmt.Fprintln(os.Stderr, "readme:", err)
			os.Exit(1)
		}
	}
}

func rewrite(path, begin, end, table string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	out, err := options.ReplaceBetween(string(b), begin, end, table)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
