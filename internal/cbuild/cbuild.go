// Package cbuild builds the project's C Vulkan apps (the layer's and the
// end-to-end suite's test apps, the benchmark apps) with their shared
// bootstrap, internal/capp, the same way in every test that needs one.
// The Makefile's examples.mk and bench.mk and scripts/hardware/build.sh use
// the same compiler flags.
package cbuild

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Flags are the C compiler flags of every app.
var Flags = []string{"-O2", "-Wall", "-Wextra", "-Werror", "-std=c11"}

// Libs are the libraries every app links.
var Libs = []string{"-lvulkan", "-lpthread", "-lm"}

// Root is the repository root, found from this file's place in it.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// App compiles the C files srcs (absolute, or relative to the repository
// root) and internal/capp/capp.c into the executable out.
func App(out string, srcs ...string) error {
	root := Root()
	args := append([]string{}, Flags...)
	args = append(args, "-I", filepath.Join(root, "internal", "capp"), "-o", out)
	for _, s := range srcs {
		if !filepath.IsAbs(s) {
			s = filepath.Join(root, s)
		}
		args = append(args, s)
	}
	args = append(append(args, filepath.Join(root, "internal", "capp", "capp.c")), Libs...)
	if b, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("build %s: cc %s: %w\n%s", filepath.Base(out), strings.Join(srcs, " "), err, b)
	}
	return nil
}
