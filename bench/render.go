package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Section markers in docs/BENCHMARKS.md: the harness replaces what lies
// between them and nothing else.
func markers(section string) (begin, end string) {
	return "<!-- bench:" + section + " -->", "<!-- /bench:" + section + " -->"
}

// ReplaceSection returns doc with the text between section's markers
// replaced by body. Both markers must be there, once each, in order.
func ReplaceSection(doc, section, body string) (string, error) {
	begin, end := markers(section)
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < 0 || j < i {
		return "", fmt.Errorf("%w: want %s ... %s", ErrNoMarkers, begin, end)
	}
	if strings.Count(doc, begin) != 1 || strings.Count(doc, end) != 1 {
		return "", fmt.Errorf("section %s: markers appear more than once", section)
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return doc[:i+len(begin)] + "\n" + body + doc[j:], nil
}

// fmtDur prints a duration with three significant digits.
func fmtDur(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	}
}

// FormatScene is one scene's summary for the terminal.
func FormatScene(s SceneResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-15s none %-9s", s.Name, fmtDur(s.Median[ConfigNone]))
	for _, c := range allConfigs[1:] {
		if _, ok := s.Median[c]; ok {
			fmt.Fprintf(&b, "  %s %s (%.2f×)", c, fmtDur(s.Median[c]), s.Ratio(c))
		}
	}
	for _, ref := range s.Refs {
		fmt.Fprintf(&b, "  %s %s (%.2f×)", refPrefix+ref, fmtDur(s.Median[refPrefix+ref]), s.Ratio(refPrefix+ref))
	}
	return b.String() + "\n"
}

var sceneTitles = map[string]string{
	"dispatch":       "dispatch-heavy",
	"shader":         "shader-heavy",
	"draw":           "draw-heavy",
	"hotloop-masked": "hot loop, masked index",
	"hotloop-memory": "hot loop, index from memory",
	"hotloop-math":   "hot loop, divisor and floats from memory",
	"pipeline":       "pipeline creation",
}

// configTitle is a configuration's column title.
func configTitle(r *Results, config string) string {
	switch config {
	case ConfigOurs:
		if len(r.Configs) == 0 {
			return "gpuav-dbg"
		}
		return "gpuav-dbg default"
	case ConfigOursAll:
		return "gpuav-dbg every check"
	case ConfigRobust:
		return "gpuav-dbg --robust"
	case ConfigDriverRobust:
		return "driver robustness2"
	case ConfigKhronos:
		if len(r.Configs) == 0 {
			return "Khronos GPU-AV"
		}
		return "Khronos " + firstField(r.Layers.Khronos)
	case ConfigKhronos2:
		return "Khronos " + firstField(r.Layers.Khronos2)
	}
	return config
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// Markdown renders the results as the body of a BENCHMARKS.md section.
func Markdown(r *Results) string {
	var b strings.Builder
	configs := r.configs()
	fmt.Fprintf(&b, "Produced by the harness (`bench/`) on %s, preset `%s`.\n\n", r.Date, r.Preset)
	fmt.Fprintf(&b, "- Machine: %s, %d cores, %s", r.Machine.CPU, r.Machine.Cores, r.Machine.OS)
	if r.Machine.Load != "" {
		fmt.Fprintf(&b, "; load average %s", r.Machine.Load)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- Device: %s; driver: %s\n", r.Device, r.Driver)
	khronos := "Khronos validation " + r.Layers.Khronos
	if r.Layers.Khronos2 != "" {
		khronos += " and " + r.Layers.Khronos2
	}
	ours := "(default checks)"
	if slices.Contains(configs, ConfigOursAll) {
		ours = "with its default checks and with every check on (`buffer_oob` and the element checks on sized arrays and plain bindings included)"
	}
	fmt.Fprintf(&b, "- Layers: gpuav-dbg %s %s; %s, GPU-AV only "+
		"(core checks, shader validation, thread safety, object lifetimes, API parameters and unique handles "+
		"disabled through `VkValidationFeaturesEXT`)\n", r.Layers.Ours, ours, khronos)
	if slices.Contains(configs, ConfigRobust) || slices.Contains(configs, ConfigDriverRobust) {
		b.WriteString("- Robustness: `gpuav-dbg --robust` is gpuav-dbg's robust-only mode (`VK_LAYER_GPUAV_DBG_ROBUST=1`: " +
			"every check on, a failed access clamped, nothing reported); `driver robustness2` is no layer, the device " +
			"created with VK_EXT_robustness2's robustBufferAccess2 and robustImageAccess2\n")
	}
	fmt.Fprintf(&b, "- Command: `%s`\n", r.Command)
	fmt.Fprintf(&b, "- Method: %d repetitions, each running the %s configurations one after the other "+
		"(order rotated per repetition); a run's time is the median of its timed iterations "+
		"(after its warm-up), measured inside the app; the table shows the median over the repetitions. "+
		"Drivers' on-disk shader caches are off.", r.Reps, numberWord(len(configs)))
	if slices.Contains(configs, ConfigOursAll) {
		b.WriteString(" The target applies to gpuav-dbg with every check on.")
	}
	b.WriteString("\n\n")
	b.WriteString("| scene | sizes (per iteration) | iterations |")
	for _, c := range configs {
		if c == ConfigNone {
			b.WriteString(" no layer |")
			continue
		}
		fmt.Fprintf(&b, " %s | ratio |", configTitle(r, c))
	}
	b.WriteString(" target | met |\n|---|---|---|" + strings.Repeat("---|", 2*len(configs)+1) + "\n")
	for _, s := range r.Scenes {
		fmt.Fprintf(&b, "| %s | %s | %d + %d warm-up |", title(s.Name), strings.ReplaceAll(s.Size, " ", ", "), s.Iters, s.Warmup)
		for _, c := range configs {
			if c == ConfigNone {
				fmt.Fprintf(&b, " %s |", fmtDur(s.Median[c]))
				continue
			}
			fmt.Fprintf(&b, " %s | %.2f× |", fmtDur(s.Median[c]), s.Ratio(c))
		}
		fmt.Fprintf(&b, " ≤ %.2f× | %s |\n", s.Target, metText(s))
	}
	refTable(&b, r)
	b.WriteString("\nEach run's median, in repetition order:\n\n")
	for _, s := range r.Scenes {
		fmt.Fprintf(&b, "- %s:", s.Name)
		keys := append([]string(nil), configs...)
		for _, ref := range s.Refs {
			keys = append(keys, refPrefix+ref)
		}
		for i, c := range keys {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s", c)
			for _, v := range s.Runs[c] {
				fmt.Fprintf(&b, " %s", fmtDur(v))
			}
		}
		b.WriteString("\n")
	}
	if len(r.Checks) > 0 {
		b.WriteString("\nChecks before timing (small sizes):\n\n")
		for _, c := range r.Checks {
			fmt.Fprintf(&b, "- %s\n", c)
		}
	}
	b.WriteString("\nEvery timed run printed `check ok` (its results verified on the CPU) and no validation error.\n")
	return b.String()
}

func title(name string) string {
	if t := sceneTitles[name]; t != "" {
		return t
	}
	return name
}

func metText(s SceneResult) string {
	if _, ran := s.Median[s.Judged()]; !ran {
		return "— (gpuav-dbg not in this run)"
	}
	target, beats := s.Met()
	_, khronos := s.Median[ConfigKhronos]
	switch {
	case !target && !khronos:
		return "**no** (over target)"
	case !target && !beats:
		return "**no** (over target, not below Khronos)"
	case !target:
		return "**no** (over target; below Khronos)"
	case !beats:
		return "**no** (not below Khronos)"
	}
	return "yes"
}

// refTable renders the reference variants' rows, if any scene has them.
func refTable(b *strings.Builder, r *Results) {
	head := false
	for _, s := range r.Scenes {
		for _, ref := range s.Refs {
			if !head {
				b.WriteString("\nHand-checked reference variants of the same shader, run with no layer in the same rotation " +
					"(what an instrumentation could cost at best):\n\n| scene | variant | time | ratio to the scene's no layer |\n|---|---|---|---|\n")
				head = true
			}
			k := refPrefix + ref
			fmt.Fprintf(b, "| %s | %s | %s | %.2f× |\n", title(s.Name), ref, fmtDur(s.Median[k]), s.Ratio(k))
		}
	}
}

func numberWord(n int) string {
	if n >= 0 && n < 7 {
		return []string{"zero", "one", "two", "three", "four", "five", "six"}[n]
	}
	return fmt.Sprint(n)
}
