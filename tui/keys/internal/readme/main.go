// Command readme writes the TUI's key table into the README, between the
// markers of keys.TableBegin and keys.TableEnd: go generate ./tui/keys.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
)

func main() {
	path := flag.String("w", "README.md", "the README to rewrite")
	flag.Parse()
	if err := rewrite(*path); err != nil {
		fmt.Fprintln(os.Stderr, "readme:", err)
		os.Exit(1)
	}
}

func rewrite(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read the README: %w", err)
	}
	out, err := keys.ReplaceTable(string(b), keys.Default().Markdown())
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		return fmt.Errorf("write the README: %w", err)
	}
	return nil
}
