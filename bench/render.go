package main

import (
	"fmt"
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
	return fmt.Sprintf("%-9s none %-9s gpuav-dbg %-9s (%.2f×)  khronos %-9s (%.2f×)\n", s.Name,
		fmtDur(s.Median[ConfigNone]), fmtDur(s.Median[ConfigOurs]), s.Ratio(ConfigOurs),
		fmtDur(s.Median[ConfigKhronos]), s.Ratio(ConfigKhronos))
}

var sceneTitles = map[string]string{
	"dispatch": "dispatch-heavy",
	"shader":   "shader-heavy",
	"draw":     "draw-heavy",
	"pipeline": "pipeline creation",
}

// Markdown renders the results as the body of a BENCHMARKS.md section.
func Markdown(r *Results) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Produced by the harness (`bench/`) on %s, preset `%s`.\n\n", r.Date, r.Preset)
	fmt.Fprintf(&b, "- Machine: %s, %d cores, %s", r.Machine.CPU, r.Machine.Cores, r.Machine.OS)
	if r.Machine.Load != "" {
		fmt.Fprintf(&b, "; load average %s", r.Machine.Load)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- Device: %s; driver: %s\n", r.Device, r.Driver)
	fmt.Fprintf(&b, "- Layers: gpuav-dbg %s (default checks); Khronos validation %s, GPU-AV only "+
		"(core checks, shader validation, thread safety, object lifetimes, API parameters and unique handles "+
		"disabled through `VkValidationFeaturesEXT`)\n", r.Layers.Ours, r.Layers.Khronos)
	fmt.Fprintf(&b, "- Command: `%s`\n", r.Command)
	fmt.Fprintf(&b, "- Method: %d repetitions, each running the three configurations one after the other "+
		"(order rotated per repetition); a run's time is the median of its timed iterations "+
		"(after its warm-up), measured inside the app; the table shows the median over the repetitions. "+
		"Drivers' on-disk shader caches are off.\n\n", r.Reps)
	b.WriteString("| scene | sizes (per iteration) | iterations | no layer | gpuav-dbg | ratio | Khronos GPU-AV | ratio | target | met |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.Scenes {
		title := sceneTitles[s.Name]
		if title == "" {
			title = s.Name
		}
		target, beats := s.Met()
		met := "yes"
		switch {
		case !target && !beats:
			met = "**no** (over target, not below Khronos)"
		case !target:
			met = "**no** (over target; below Khronos)"
		case !beats:
			met = "**no** (not below Khronos)"
		}
		fmt.Fprintf(&b, "| %s | %s | %d + %d warm-up | %s | %s | %.2f× | %s | %.2f× | ≤ %.2f× | %s |\n",
			title, strings.ReplaceAll(s.Size, " ", ", "), s.Iters, s.Warmup,
			fmtDur(s.Median[ConfigNone]), fmtDur(s.Median[ConfigOurs]), s.Ratio(ConfigOurs),
			fmtDur(s.Median[ConfigKhronos]), s.Ratio(ConfigKhronos), s.Target, met)
	}
	b.WriteString("\nEach run's median, in repetition order:\n\n")
	for _, s := range r.Scenes {
		fmt.Fprintf(&b, "- %s:", s.Name)
		for i, c := range Configs {
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
