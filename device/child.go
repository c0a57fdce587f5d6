package device

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// ProbeArgs make gpuav-dbg run Probe and print its report as JSON
// (`gpuav-dbg doctor --probe`).
var ProbeArgs = []string{"doctor", "--probe"}

// ChildTimeout bounds a probe child: a driver that hangs in
// vkCreateInstance must not hang the doctor or the launcher.
const ChildTimeout = 20 * time.Second

// WriteJSON writes the report as the probe child prints it.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write probe report: %w", err)
	}
	return nil
}

// ChildEnv returns the environment for a probe child from env: the
// variables that enable explicit layers (VK_INSTANCE_LAYERS,
// VK_LOADER_LAYERS_ENABLE) are dropped, so that no layer (ours, a Go
// runtime, least of all) is loaded into the probe; implicit layers stay, so
// the devices come in the order an app sees. addLayerPath, when not empty,
// is put first in VK_ADD_LAYER_PATH so that the loader lists the layer in
// it.
func ChildEnv(env []string, addLayerPath string) []string {
	out := make([]string, 0, len(env)+1)
	added := false
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE":
			continue
		case "VK_ADD_LAYER_PATH":
			if addLayerPath != "" {
				if v != "" {
					v = addLayerPath + ":" + v
				} else {
					v = addLayerPath
				}
				kv, added = k+"="+v, true
			}
		}
		out = append(out, kv)
	}
	if addLayerPath != "" && !added {
		out = append(out, "VK_ADD_LAYER_PATH="+addLayerPath)
	}
	return out
}

// RunChild runs `exe doctor --probe` with env and reads its report. A child
// that crashes, hangs past timeout or prints no report gives an error that
// says so in one line (with the child's last line of stderr).
func RunChild(ctx context.Context, exe string, env []string, timeout time.Duration) (*Report, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, ProbeArgs...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	last := lastLine(stderr.String())
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("device probe: no answer in %v (a Vulkan driver hangs in vkCreateInstance?)%s", timeout, last)
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return nil, fmt.Errorf("device probe: crashed with %v (in the Vulkan loader or driver)%s", ws.Signal(), last)
			}
			return nil, fmt.Errorf("device probe: exited %d%s", ee.ExitCode(), last)
		}
		return nil, fmt.Errorf("device probe: %w", err)
	}
	r, err := ParseReport(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("device probe: %w%s", err, last)
	}
	return r, nil
}

// lastLine is ": " and the last non-empty line of s, or "".
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if l == "" {
		return ""
	}
	if len(l) > 300 {
		l = l[:300] + "..."
	}
	return ": " + l
}
