// Package launcher starts an app under the gpuav-dbg layer. It finds the
// layer, gives the app the loader variables, the socket and the settings,
// runs the socket server and the collector that build the session (written
// to its file as messages arrive), records the app's output and how it
// ended, and starts it again with other settings for the TUI. The command
// line (cmd/gpuav-dbg) is flags and wiring around it.
package launcher

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// Names the layer and the loader know.
const (
	// LayerName is the layer's name in its manifest.
	LayerName = options.LayerName
	// ManifestName is the layer's manifest file.
	ManifestName = "VkLayer_gpuav_dbg.json"
)

// The launcher's own environment variables are rows of the options table:
// options.LayerPath overrides the directory holding the manifest,
// options.SourcePath lists directories searched, after --source-path's,
// for shader source files a module names but does not carry.

// ResolveApp finds the app the way a shell would: a name with a slash is a
// path, a bare name is looked up in $PATH. It says in one line what is
// wrong: no such file, not executable, or not in $PATH (and what the
// working directory has under that name).
func ResolveApp(app string) (string, error) {
	if !strings.Contains(app, "/") {
		p, err := exec.LookPath(app)
		if err == nil {
			return p, nil
		}
		if _, lerr := checkExecutable(app); lerr == nil {
			return "", fmt.Errorf("%s: not found in $PATH; to run the one in the working directory, name it ./%s", app, app)
		} else if _, serr := os.Stat(app); serr == nil {
			return "", fmt.Errorf("%s: not found in $PATH, and ./%s is %s", app, app, strings.TrimPrefix(lerr.Error(), app+": "))
		}
		return "", fmt.Errorf("%s: not found in $PATH", app)
	}
	return checkExecutable(app)
}

// checkExecutable checks that path is a file the user may execute.
func checkExecutable(app string) (string, error) {
	fi, err := os.Stat(app)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s: no such file", app)
	case err != nil:
		return "", fmt.Errorf("%s: %w", app, errors.Unwrap(err))
	case fi.IsDir():
		return "", fmt.Errorf("%s: not executable (a directory)", app)
	case fi.Mode().Perm()&0o111 == 0 || syscall.Access(app, 1) != nil:
		return "", fmt.Errorf("%s: not executable", app)
	}
	return app, nil
}

// Place is a directory the launcher looks in for the layer's manifest,
// and how it came to look there.
type Place struct {
	Dir string
	How string
}

// LayerPlaces are where FindLayer looks, in order: $GPUAV_DBG_LAYER_PATH
// alone when set; else next to gpuav-dbg (a build tree's bin/),
// PREFIX/share/vulkan/explicit_layer.d for gpuav-dbg in PREFIX/bin (make
// install), then where the Vulkan loader looks for explicit layers
// ($XDG_DATA_HOME, $XDG_DATA_DIRS, /etc). exeDir is gpuav-dbg's own
// directory ("" when unknown).
func LayerPlaces(getenv func(string) string, exeDir string) []Place {
	if d := getenv(options.LayerPath.Env); d != "" {
		return []Place{{d, "$" + options.LayerPath.Env}}
	}
	const sub = "vulkan/explicit_layer.d"
	var out []Place
	if exeDir != "" {
		out = append(out, Place{exeDir, "next to gpuav-dbg"},
			Place{filepath.Join(filepath.Dir(exeDir), "share", sub), "installed with gpuav-dbg"})
	}
	data := getenv("XDG_DATA_HOME")
	if data == "" {
		if home := getenv("HOME"); home != "" {
			data = filepath.Join(home, ".local", "share")
		}
	}
	if data != "" {
		out = append(out, Place{filepath.Join(data, sub), "the loader's user directory"})
	}
	dirs := getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	for _, d := range filepath.SplitList(dirs) {
		if d != "" {
			out = append(out, Place{filepath.Join(d, sub), "the loader's system directory"})
		}
	}
	return append(out, Place{filepath.Join("/etc", sub), "the loader's system directory"})
}

// FindLayer returns the first place of LayerPlaces that holds the layer's
// manifest, its directory made absolute. The error names every place it
// looked.
func FindLayer(getenv func(string) string, exeDir string) (Place, error) {
	var looked []string
	for _, p := range LayerPlaces(getenv, exeDir) {
		if abs, err := filepath.Abs(p.Dir); err == nil {
			p.Dir = abs
		}
		manifest := filepath.Join(p.Dir, ManifestName)
		if fi, err := os.Stat(manifest); err == nil && !fi.IsDir() {
			return p, nil
		}
		looked = append(looked, fmt.Sprintf("%s (%s)", manifest, p.How))
	}
	return Place{}, fmt.Errorf("layer manifest not found: looked for %s; build it with make, install it with make install, or set %s",
		strings.Join(looked, ", "), options.LayerPath.Env)
}

// Env is the app's environment: the parent's plus the loader variables
// that add the layer in layerDir, and every option the launcher passes
// (options.Passed: the socket, the checks, the settings of set). An
// option set leaves unset is left to the layer's default (and to the
// parent's environment).
func Env(parent []string, layerDir, socket string, set session.Settings) []string {
	e := newEnv(parent)
	e.prepend("VK_ADD_LAYER_PATH", layerDir)
	e.appendList("VK_INSTANCE_LAYERS", LayerName)
	v := options.Values{Settings: set, Socket: socket}
	for _, o := range options.With(options.Passed) {
		if o.IsSet(&v) {
			e.put(o.Env, o.Text(&v))
		}
	}
	return e.list()
}

// env is an environment being edited: values by name, names in order.
type env struct {
	set   map[string]string
	order []string
}

func newEnv(parent []string) *env {
	e := &env{set: map[string]string{}}
	for _, kv := range parent {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.put(k, v)
		}
	}
	return e
}

func (e *env) put(k, v string) {
	if _, seen := e.set[k]; !seen {
		e.order = append(e.order, k)
	}
	e.set[k] = v
}

// prepend puts v first in the colon-separated list k.
func (e *env) prepend(k, v string) {
	if old := e.set[k]; old != "" {
		v = v + ":" + old
	}
	e.put(k, v)
}

// appendList adds v at the end of the colon-separated list k, unless it
// is there.
func (e *env) appendList(k, v string) {
	old := e.set[k]
	for _, x := range strings.Split(old, ":") {
		if x == v {
			return
		}
	}
	if old != "" {
		v = old + ":" + v
	}
	e.put(k, v)
}

func (e *env) list() []string {
	out := make([]string, 0, len(e.order))
	for _, k := range e.order {
		out = append(out, k+"="+e.set[k])
	}
	return out
}
