package main

import (
	"os"
	"path/filepath"
)

// EnvSourcePath is a colon-separated list of directories searched, after
// those of --source-path, for shader source files a module names but does
// not carry.
const EnvSourcePath = "GPUAV_DBG_SOURCE_PATH"

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
		for _, d := range filepath.SplitList(c.getenv(EnvSourcePath)) {
			add(d)
		}
	}
	return dir, dirs
}
