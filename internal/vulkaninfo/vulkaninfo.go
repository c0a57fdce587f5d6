// Package vulkaninfo runs the `vulkaninfo` tool (Debian vulkan-tools) and
// reads its text output, so that tests can compare what the device probe
// reads with what the Khronos tool prints for the same driver.
package vulkaninfo

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// GPU is what vulkaninfo prints for one physical device: every
// "name = value" line of its section, first occurrence kept.
type GPU struct {
	Values map[string]string
}

// Run runs vulkaninfo with env (nil: this process's) and returns its GPUs in
// order. A missing tool is an error, never a skip.
func Run(env []string) ([]GPU, error) {
	path, err := exec.LookPath("vulkaninfo")
	if err != nil {
		return nil, fmt.Errorf("vulkaninfo not found (install vulkan-tools with scripts/install-deps): %w", err)
	}
	cmd := exec.Command(path)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("vulkaninfo: %w", err)
	}
	return Parse(string(out)), nil
}

var gpuHeader = regexp.MustCompile(`^GPU(\d+):\s*$`)

// Parse splits vulkaninfo's text output into GPU sections ("GPU0:") and
// reads their "name = value" lines.
func Parse(out string) []GPU {
	var gpus []GPU
	var cur *GPU
	for _, line := range strings.Split(out, "\n") {
		if gpuHeader.MatchString(strings.TrimSpace(line)) {
			gpus = append(gpus, GPU{Values: map[string]string{}})
			cur = &gpus[len(gpus)-1]
			continue
		}
		if cur == nil {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		if _, seen := cur.Values[k]; !seen {
			cur.Values[k] = v
		}
	}
	return gpus
}

// Bool returns a feature's value and whether vulkaninfo printed it.
func (g GPU) Bool(name string) (value, ok bool) {
	v, ok := g.Values[name]
	if !ok || (v != "true" && v != "false") {
		return false, false
	}
	return v == "true", true
}

// Uint returns a number vulkaninfo printed, reading "1.4.305 (4210993)" as
// the number in parentheses.
func (g GPU) Uint(name string) (uint64, error) {
	v, ok := g.Values[name]
	if !ok {
		return 0, fmt.Errorf("vulkaninfo printed no %s", name)
	}
	if i := strings.LastIndex(v, "("); i >= 0 && strings.HasSuffix(v, ")") {
		v = v[i+1 : len(v)-1]
	}
	n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
	if err != nil {
		return 0, fmt.Errorf("vulkaninfo %s = %q: %w", name, g.Values[name], err)
	}
	return n, nil
}
