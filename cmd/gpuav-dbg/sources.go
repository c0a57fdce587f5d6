package main

import (
	"os"
	"path/filepath"

	"github.com/gpuav-dbg/gpuav-dbg/launcher"
)

// sourceSearch returns the app's working directory (the launcher's) and
// the source search path: --source-path's directories, then
// GPUAV_DBG_SOURCE_PATH's, made absolute. The session reads source files
// there (session.SourceDirs).
func (c *cli) sourceSearch() (string, []string) {
	dir, _ := os.Getwd()
	var dirs []string
	add := func(d string) {
		if d == "" {
			return
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		dirs = append(dirs, d)
	}
	for _, d := range c.sourcePath {
		add(d)
	}
	if c.getenv != nil {
		for _, d := range filepath.SplitList(c.getenv(launcher.EnvSourcePath)) {
			add(d)
		}
	}
	return dir, dirs
}
