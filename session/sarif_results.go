package session

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// A SARIF result is one bug, not one group: the groups of one check at one
// source location (one instruction of one shader where there is no
// source; one layer site of one command for the command checks) under one
// pipeline name are one result, with the count of every failed access and
// a few of the actions as samples. Code scanning opens one alert per
// result, so 10,000 draws through one bad line are one alert, and the
// fingerprint holds nothing that changes from run to run (no draw number,
// no handle, no shader id).

// sarifSampleActions is how many actions a result names.
const sarifSampleActions = 5

// FingerprintKey is the partialFingerprints key of a result.
const FingerprintKey = "gpuavDbgResult/v2"

// sarifBucket is the groups of one result.
type sarifBucket struct {
	check  string
	groups []*ErrorGroup
}

// sarifBucketKey is what puts groups into one result: the check, the
// level, the place and the pipeline's name (unnamed pipelines are one).
func sarifBucketKey(g *ErrorGroup) string {
	return strings.Join([]string{g.Check, groupLevel(g), stablePlace(g), g.Pipeline.Name}, "\x00")
}

// stablePlace is a group's place in words that hold across runs: the
// source file and line (and column), else the shader's debug name (or
// "shader N") and the instruction, else the command and the layer's site.
func stablePlace(g *ErrorGroup) string {
	if src := g.Source; src != nil && src.File != "" && src.Line > 0 {
		file := src.File
		if src.Path != "" {
			file = src.Path
		}
		return fmt.Sprintf("%s:%d:%d", file, src.Line, max(src.Column, 0))
	}
	if g.Shader.ID == 0 {
		return fmt.Sprintf("%s/layer site %d", g.Action, g.Instruction)
	}
	name := g.Shader.Name
	if name == "" {
		name = fmt.Sprintf("shader %d", g.Shader.ID)
	}
	return fmt.Sprintf("%s/instruction %d", name, g.Instruction)
}

// sarifBuckets sorts the groups into results, in the order of each
// result's first group.
func sarifBuckets(groups []*ErrorGroup) []*sarifBucket {
	var out []*sarifBucket
	by := map[string]*sarifBucket{}
	for _, g := range groups {
		k := sarifBucketKey(g)
		b := by[k]
		if b == nil {
			b = &sarifBucket{check: g.Check}
			by[k] = b
			out = append(out, b)
		}
		b.groups = append(b.groups, g)
	}
	return out
}

// count is the failed accesses of every group of the result.
func (b *sarifBucket) count() int {
	n := 0
	for _, g := range b.groups {
		n += g.Count
	}
	return n
}

// sarifAction is one action a result names as a sample.
type sarifAction struct {
	CommandBuffer Handle `json:"command_buffer"`
	Submit        uint64 `json:"submit"`
	Action        string `json:"action"`
	ActionIndex   uint32 `json:"action_index"`
	Pipeline      Handle `json:"pipeline"`
	Count         int    `json:"count"`
}

// actions are the distinct (command buffer, action) pairs of the result's
// groups, and the distinct pipelines and command buffers.
func (b *sarifBucket) actions() (acts []sarifAction, pipelines []Handle, cmdBufs int) {
	type key struct {
		cb     string
		serial uint64 // a command buffer given a freed one's handle is another
		index  uint32
	}
	seen := map[key]int{}
	cbs := map[key]bool{}
	for _, g := range b.groups {
		k := key{g.CommandBuffer.Handle, g.CommandBuffer.Serial, g.ActionIndex}
		if i, ok := seen[k]; ok {
			acts[i].Count += g.Count
			continue
		}
		seen[k] = len(acts)
		cbs[key{cb: k.cb, serial: k.serial}] = true
		acts = append(acts, sarifAction{CommandBuffer: g.CommandBuffer, Submit: g.Submit, Action: g.Action,
			ActionIndex: g.ActionIndex, Pipeline: g.Pipeline, Count: g.Count})
		if g.Pipeline.Handle != "" && g.Pipeline.Handle != "0x0" && !slices.Contains(pipelines, g.Pipeline) {
			pipelines = append(pipelines, g.Pipeline)
		}
	}
	return acts, pipelines, len(cbs)
}

// sarifResultOf is one result: its groups' location, message, count,
// fingerprint and properties.
func sarifResultOf(s *Session, b *sarifBucket, ruleIndex int, root string, repo *repoFiles) sarifResult {
	g := b.groups[0]
	res := sarifResult{RuleID: b.check, RuleIndex: ruleIndex, Level: groupLevel(g), OccurrenceCount: max(b.count(), 1)}
	logical := sarifLogical{Name: shaderName(g), FullyQualifiedName: fmt.Sprintf("%s/instruction %d", shaderName(g), g.Instruction), Kind: "module"}
	if g.Shader.ID == 0 { // a layer record: the command is where it is
		logical = sarifLogical{Name: g.Action, FullyQualifiedName: g.Action + "/" + g.where(), Kind: "function"}
	}
	loc := sarifLocation{LogicalLocations: []sarifLogical{logical}}
	// The fingerprint: the check, the file as code scanning sees it and
	// the line's text (a line that moves keeps its alert), the pipeline's
	// name; uniqueFingerprints tells identical ones apart.
	fp := []string{b.check, groupLevel(g)}
	if src := g.Source; src != nil && src.File != "" {
		file := src.Path
		if file == "" {
			file = repo.find(src.File, src.Line, src.Text, s.Sources[SourceKey{g.Shader.ID, src.File}])
		}
		if file == "" {
			file = src.File
		}
		pl := &sarifPhysical{ArtifactLocation: artifactLocation(file, root)}
		fp = append(fp, pl.ArtifactLocation.URI)
		if src.Line > 0 {
			pl.Region = &sarifRegion{StartLine: src.Line, StartColumn: max(src.Column, 0)}
			if src.Text != "" {
				pl.Region.Snippet = &sarifText{src.Text}
				fp = append(fp, strings.TrimSpace(src.Text))
			} else {
				fp = append(fp, fmt.Sprintf("line %d", src.Line))
			}
		}
		loc.PhysicalLocation = pl
	} else {
		fp = append(fp, stablePlace(g))
		if src != nil && src.Note != "" {
			loc.Message = &sarifText{"source unknown: " + src.Note}
		}
	}
	fp = append(fp, g.Pipeline.Name)
	res.Locations = []sarifLocation{loc}
	if r := g.Race; r != nil && r.OtherSource != nil && r.OtherSource.File != "" {
		// The hazard's earlier access: its line as a related location.
		src := r.OtherSource
		file := src.Path
		if file == "" {
			file = repo.find(src.File, src.Line, src.Text, s.Sources[SourceKey{g.Shader.ID, src.File}])
		}
		if file == "" {
			file = src.File
		}
		pl := &sarifPhysical{ArtifactLocation: artifactLocation(file, root)}
		if src.Line > 0 {
			pl.Region = &sarifRegion{StartLine: src.Line, StartColumn: max(src.Column, 0)}
			if src.Text != "" {
				pl.Region.Snippet = &sarifText{src.Text}
			}
		}
		res.RelatedLocations = []sarifLocation{{ID: 1, PhysicalLocation: pl,
			Message: &sarifText{fmt.Sprintf("the other access of the %s hazard, by local invocation %s", r.Kind, fmtIDs(r.OtherLocalID))}}}
	}
	res.PartialFingerprints = map[string]string{FingerprintKey: strings.Join(fp, "|")}
	acts, pipelines, cmdBufs := b.actions()
	res.Message = sarifText{resultMessage(s, b, acts, pipelines, cmdBufs)}

	samples := acts[:min(len(acts), sarifSampleActions)]
	props := map[string]any{
		"count":          b.count(),
		"groups":         len(b.groups),
		"actions":        len(acts),
		"sample_actions": samples,
		"stage":          g.Stage,
		"coords":         g.Coords,
		"command_buffer": g.CommandBuffer,
		"submit":         g.Submit,
		"action":         g.Action,
		"action_index":   g.ActionIndex,
		"pipeline":       g.Pipeline,
		"shader":         g.Shader,
		"instruction":    g.Instruction,
	}
	if len(pipelines) > 1 {
		props["pipelines"] = pipelines
	}
	if g.VUID != "" {
		props["vuid"] = g.VUID
	}
	last := b.groups[len(b.groups)-1]
	if !last.LastCoords.IsZero() {
		props["last_coords"] = last.LastCoords
	}
	lastSubmit := uint64(0)
	for _, x := range b.groups {
		lastSubmit = max(lastSubmit, x.LastSubmit, x.Submit)
	}
	if lastSubmit > 0 {
		props["last_submit"] = lastSubmit
	}
	if len(g.Samples) > 0 {
		props["samples"] = g.Samples
	}
	if g.Descriptor != nil {
		props["descriptor"] = g.Descriptor
	}
	if g.Ray != nil {
		props["ray"] = g.Ray
	}
	if g.SBT != nil {
		props["sbt"] = g.SBT
	}
	if g.Intersection != nil {
		props["intersection"] = g.Intersection
	}
	if g.BDA != nil {
		props["bda"] = g.BDA
	}
	if g.Buffer != nil {
		props["buffer"] = g.Buffer
	}
	if g.Texel != nil {
		props["texel"] = g.Texel
	}
	if g.Sanitizer != nil {
		props["sanitizer"] = g.Sanitizer
	}
	if g.Mesh != nil {
		props["mesh"] = g.Mesh
	}
	if g.Race != nil {
		props["race"] = g.Race
	}
	if g.Barrier != nil {
		props["barrier"] = g.Barrier
	}
	if g.LoopBudget != nil {
		props["loop_budget"] = g.LoopBudget
	}
	if g.Outcome != nil {
		props["outcome"] = g.Outcome
	}
	if len(g.Labels) > 0 {
		props["labels"] = g.Labels
	}
	if g.Queue.Handle != "" {
		props["queue"] = g.Queue
	}
	if g.PrimaryActionIndex != nil {
		props["primary_command_buffer"] = g.PrimaryCommandBuffer
		props["primary_action_index"] = *g.PrimaryActionIndex
	}
	res.Properties = props
	return res
}

// resultMessage says what went wrong (the first group's values), what
// the access did, how often and in how many actions (a few named), and
// where in the source.
func resultMessage(s *Session, b *sarifBucket, acts []sarifAction, pipelines []Handle, cmdBufs int) string {
	g := b.groups[0]
	var m strings.Builder
	what := g.what()
	if what == "" {
		fmt.Fprintf(&m, "%s.", b.check)
	} else {
		fmt.Fprintf(&m, "%s: %s.", b.check, what)
	}
	if o := g.Outcome.Sentence(g.Check); o != "" {
		fmt.Fprintf(&m, " %s", o)
	}
	if g.VUID != "" {
		fmt.Fprintf(&m, " %s.", g.VUID)
	}
	layer := g.Shader.ID == 0
	n := b.count()
	switch {
	case layer:
		fmt.Fprintf(&m, " Found %d %s", n, plural(n, "time", "times"))
	default:
		fmt.Fprintf(&m, " %d %s", n, plural(n, "failed access", "failed accesses"))
	}
	fmt.Fprintf(&m, " in %d %s", len(acts), plural(len(acts), "action", "actions"))
	if cmdBufs > 1 {
		fmt.Fprintf(&m, " of %d command buffers", cmdBufs)
	}
	switch {
	case len(pipelines) == 1:
		fmt.Fprintf(&m, ", pipeline %s", pipelines[0])
	case len(pipelines) > 1:
		fmt.Fprintf(&m, ", %d pipelines", len(pipelines))
	}
	if s.Dropped > 0 || s.LostRecords > 0 {
		m.WriteString(" (at least: records were dropped or lost, see the run's properties)")
	}
	m.WriteString(":")
	for i, a := range acts {
		if i == sarifSampleActions {
			fmt.Fprintf(&m, " and %d more", len(acts)-i)
			break
		}
		if i > 0 {
			m.WriteString(";")
		}
		action := a.Action
		if action == "" {
			action = "action"
		}
		fmt.Fprintf(&m, " %s #%d of command buffer %s", action, a.ActionIndex, a.CommandBuffer)
		if a.Submit > 0 {
			fmt.Fprintf(&m, ", submit %d", a.Submit)
		}
		if len(acts) > 1 {
			fmt.Fprintf(&m, " (×%d)", a.Count)
		}
	}
	m.WriteString(".")
	if g.Stage != "" {
		fmt.Fprintf(&m, " Stage %s", g.Stage)
		if !g.Coords.IsZero() {
			fmt.Fprintf(&m, ", first at %s", g.Coords)
		}
		m.WriteString(".")
	}
	if src := g.Source; src != nil {
		if loc := src.Location(); loc != "" {
			fmt.Fprintf(&m, " %s:", loc)
			if src.Text != "" {
				m.WriteString("\n" + src.Text)
				if c := src.Caret(); c != "" {
					m.WriteString("\n" + c)
				}
			}
		} else if src.Note != "" {
			fmt.Fprintf(&m, " Source unknown: %s.", src.Note)
		}
	}
	return m.String()
}

// uniqueFingerprints hashes each result's fingerprint, telling apart
// results whose words are the same (two lines of the same text in one
// file) by their order: the second is "…|2".
func uniqueFingerprints(results []sarifResult) {
	seen := map[string]int{}
	for i := range results {
		words := results[i].PartialFingerprints[FingerprintKey]
		seen[words]++
		if n := seen[words]; n > 1 {
			words += fmt.Sprintf("|%d", n)
		}
		sum := sha256.Sum256([]byte(words))
		results[i].PartialFingerprints[FingerprintKey] = hex.EncodeToString(sum[:16])
	}
}

// ruleHelp is a check's help said the way the run's on_error makes true:
// with skip (the default) as the registry says it; with clamp or
// execute, the registry's words about a skipped access replaced by what
// the run did. The command checks make a command harmless unless on_error
// is execute.
func ruleHelp(c *gpuav.Check, set Settings) string {
	v := gpuav.OnErrorOrDefault(gpuav.OnError(set.OnError))
	if set.Robust {
		v = gpuav.OnErrorClamp
	}
	if v == gpuav.OnErrorSkip || c.Command && v == gpuav.OnErrorClamp {
		return c.Help
	}
	help := c.HelpUnder(v)
	switch {
	case v == gpuav.OnErrorExecute && c.Command:
		help += " This run had on_error execute: gpuav-dbg let the command run as recorded."
	case v == gpuav.OnErrorExecute:
		help += " This run had on_error execute: the access ran as the shader wrote it."
	case set.Robust:
		help += " This run was robust-only: accesses were clamped into range and not reported."
	default:
		help += " This run had on_error clamp: the access went to the index, offset or texel clamped into range, " +
			"or did not happen where a clamp has no meaning; each result's message says which."
	}
	return help
}

// repoFiles finds the files of a repository by base name, for source
// files a session did not find on disk: SARIF locates results by a path
// code scanning can place.
type repoFiles struct {
	root   string
	byBase map[string][]string // built on the first find
	// warnings say which files were not found, or not found alone;
	// notes which were found among copies.
	warnings, notes []string
	answers         map[string]string
}

// repoWalkLimit bounds the entries a search of the repository visits.
const repoWalkLimit = 200000

// repoReadLimit bounds the size of a file read to compare a line.
const repoReadLimit = 4 << 20

func newRepoFiles(root string) *repoFiles {
	return &repoFiles{root: root, answers: map[string]string{}}
}

// index walks the repository once: regular files by base name, hidden
// directories (.git...) and symbolic links left out.
func (r *repoFiles) index() {
	if r.byBase != nil {
		return
	}
	r.byBase = map[string][]string{}
	seen := 0
	_ = filepath.WalkDir(r.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		seen++
		if seen > repoWalkLimit {
			return fs.SkipAll
		}
		if d.IsDir() {
			if path != r.root && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			r.byBase[d.Name()] = append(r.byBase[d.Name()], path)
		}
		return nil
	})
}

// find returns the file of the repository that a module's source file
// name is (an absolute path), or "" with a warning. The candidates are the
// files of that base name; where the module carries its text (lines),
// those whose text is the module's, else those whose line `line` is
// text (any, when neither is known); among several, the one whose path
// ends with the name as the module gives it, or, when they are copies of
// one text, the first by path (with a note).
func (r *repoFiles) find(name string, line int, text string, lines []string) string {
	key := fmt.Sprintf("%s\x00%d\x00%s\x00%d", name, line, text, len(lines))
	if p, ok := r.answers[key]; ok {
		return p
	}
	p, warn := r.search(name, line, text, lines)
	r.answers[key] = p
	if warn != "" && !slices.Contains(r.warnings, warn) {
		r.warnings = append(r.warnings, warn)
	}
	return p
}

func (r *repoFiles) search(name string, line int, text string, lines []string) (string, string) {
	base := filepath.Base(filepath.FromSlash(name))
	if base == "" || base == "." || base == ".." || base == string(filepath.Separator) {
		return "", ""
	}
	hint := "results there are located by the bare name; run with --source-path DIR"
	r.index()
	all := r.byBase[base]
	var match []string
	if len(lines) > 0 {
		for _, c := range all {
			if got, ok := readLines(c); ok && sameText(got, lines) {
				match = append(match, c)
			}
		}
	}
	if len(match) == 0 {
		for _, c := range all {
			if text == "" || sameLine(c, line, text) {
				match = append(match, c)
			}
		}
	}
	switch {
	case len(match) == 1:
		return match[0], ""
	case len(match) == 0 && len(all) > 0:
		return "", fmt.Sprintf("source file %s: no file of that name in the repository %s has the module's text at line %d: %s",
			name, r.root, line, hint)
	case len(match) == 0:
		return "", fmt.Sprintf("source file %s is not in the repository %s: %s", name, r.root, hint)
	}
	// Several: the name as the module gives it, its leading ../ dropped.
	suffix := filepath.Clean(filepath.FromSlash(name))
	for strings.HasPrefix(suffix, ".."+string(filepath.Separator)) {
		suffix = suffix[3:]
	}
	var ends []string
	for _, c := range match {
		if c == suffix || strings.HasSuffix(c, string(filepath.Separator)+suffix) {
			ends = append(ends, c)
		}
	}
	if len(ends) == 1 {
		return ends[0], ""
	}
	slices.SortFunc(match, cmp.Compare)
	rel := make([]string, len(match))
	for i, c := range match {
		rel[i], _ = filepath.Rel(r.root, c)
	}
	list := strings.Join(rel[:min(len(rel), 4)], ", ")
	if copies(match) {
		r.notes = append(r.notes, fmt.Sprintf("source file %s: %d copies of it in the repository %s (%s): results located at the first",
			name, len(match), r.root, list))
		return match[0], ""
	}
	return "", fmt.Sprintf("source file %s: %d files in the repository %s match (%s): %s", name, len(match), r.root, list, hint)
}

// copies reports whether the files at paths hold the same bytes.
func copies(paths []string) bool {
	var first []byte
	for i, p := range paths {
		data, err := readRepoFile(p)
		if err != nil {
			return false
		}
		if i == 0 {
			first = data
		} else if string(data) != string(first) {
			return false
		}
	}
	return true
}

// readRepoFile reads a regular file of at most repoReadLimit bytes.
func readRepoFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > repoReadLimit {
		return nil, fmt.Errorf("%s: not a small regular file", path)
	}
	return os.ReadFile(path)
}

// readLines reads a file's lines (a final newline ends the last line).
func readLines(path string) ([]string, bool) {
	data, err := readRepoFile(path)
	if err != nil {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), true
}

// sameText reports whether two texts are the same lines, trailing spaces
// and carriage returns and trailing empty lines ignored.
func sameText(a, b []string) bool {
	trim := func(l []string) []string {
		for len(l) > 0 && strings.TrimSpace(l[len(l)-1]) == "" {
			l = l[:len(l)-1]
		}
		return l
	}
	a, b = trim(a), trim(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimRight(a[i], " \t\r") != strings.TrimRight(b[i], " \t\r") {
			return false
		}
	}
	return true
}

// sameLine reports whether line n of the file at path is text, spaces
// around them ignored.
func sameLine(path string, n int, text string) bool {
	lines, ok := readLines(path)
	if !ok || n < 1 || n > len(lines) {
		return false
	}
	return strings.TrimSpace(lines[n-1]) == strings.TrimSpace(text)
}
