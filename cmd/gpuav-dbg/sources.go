package main

import (
	"os"
	"path/filepath"

	"github.com/gpuav-dbg/gpuav-dbg/options"
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
		for _, d := range filepath.SplitList(c.getenv(options.SourcePath.Env)) {
			add(d)
		}
	}
	return dir, dirs
}

// sourceExt returns the extensions the user added to the shader sources':
// --source-ext's, then GPUAV_DBG_SOURCE_EXT's.
func (c *cli) sourceExt(flag []string) []string {
	out := append([]string(nil), flag...)
	if c.getenv != nil {
		for _, e := range filepath.SplitList(c.getenv(options.SourceExt.Env)) {
			if e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}
