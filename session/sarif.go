package session

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// SARIF 2.1.0 export: one rule per check, one result per check and source
// location (sarif_results.go),
// located at the shader source file and line so that code-scanning tools
// annotate the shader. See docs/REPORT.md.

// SARIFSchema is the URI of the schema the log follows.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SourceRootID is the uriBaseId of source files given relative to the
// source root.
const SourceRootID = "SRCROOT"

// SARIFOptions adjust a SARIF log.
type SARIFOptions struct {
	// SourceRoot is the %SRCROOT% base: the directory that source files
	// found on disk (Source.Path) are made relative to, and that file names
	// not found are taken relative to; "" is the repository root of the
	// current directory (RepoRoot).
	SourceRoot string
	// ToolVersion is gpuav-dbg's version ("" leaves it out).
	ToolVersion string
	// Mode is the file's mode (0: ReportMode).
	Mode os.FileMode
	// Warn, when set, is told each warning the log's run carries as a
	// notification (a source file not found in the repository).
	Warn func(string)
}

// sarif* are the parts of the SARIF log gpuav-dbg writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		Invocations        []sarifInvocation           `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
		Properties         map[string]any              `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name"`
		ShortDescription     sarifText      `json:"shortDescription"`
		FullDescription      sarifText      `json:"fullDescription"`
		Help                 sarifText      `json:"help"`
		HelpURI              string         `json:"helpUri,omitempty"`
		DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
		Properties           map[string]any `json:"properties,omitempty"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Arguments           []string            `json:"arguments,omitempty"`
		ExecutableLocation  *sarifArtifactLoc   `json:"executableLocation,omitempty"`
		ExitCode            *int                `json:"exitCode,omitempty"`
		ExitSignalName      string              `json:"exitSignalName,omitempty"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string    `json:"level"`
		Message sarifText `json:"message"`
		TimeUTC string    `json:"timeUtc,omitempty"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		OccurrenceCount     int               `json:"occurrenceCount"`
		Properties          map[string]any    `json:"properties"`
	}
	sarifLocation struct {
		ID               int            `json:"id,omitempty"`
		PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
		LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
		Message          *sarifText     `json:"message,omitempty"`
		Properties       map[string]any `json:"properties,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           *sarifRegion     `json:"region,omitempty"`
	}
	sarifRegion struct {
		StartLine   int        `json:"startLine"`
		StartColumn int        `json:"startColumn,omitempty"`
		Snippet     *sarifText `json:"snippet,omitempty"`
	}
	sarifLogical struct {
		Name               string `json:"name"`
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
)

// WriteSARIF writes the session as a SARIF 2.1.0 log, relative paths
// relative to the current directory.
func WriteSARIF(w io.Writer, s *Session) error {
	return WriteSARIFWith(w, s, SARIFOptions{})
}

// WriteSARIFWith writes the session as a SARIF 2.1.0 log.
func WriteSARIFWith(w io.Writer, s *Session, opt SARIFOptions) error {
	if err := encodeSARIF(w, s, opt); err != nil {
		return fmt.Errorf("write SARIF: %w", err)
	}
	return nil
}

// encodeSARIF writes the log; its error says what failed, without "write
// SARIF".
func encodeSARIF(w io.Writer, s *Session, opt SARIFOptions) error {
	root := opt.SourceRoot
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("source root: %w", err)
		}
		root = RepoRoot(wd)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("source root: %w", err)
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "gpuav-dbg", Version: opt.ToolVersion,
			InformationURI: "https://github.com/gpuav-dbg/gpuav-dbg"}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{SourceRootID: {URI: fileURI(root, true)}},
		Results:            []sarifResult{},
	}
	rules := map[string]int{}
	vuids := map[string][]string{}
	rule := func(check string) int {
		if i, ok := rules[check]; ok {
			return i
		}
		rules[check] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, newRule(check, s.Settings))
		return rules[check]
	}
	for _, id := range gpuav.AllChecks {
		rule(id)
	}
	repo := newRepoFiles(root)
	for _, b := range sarifBuckets(s.Groups) {
		ri := rule(b.check)
		for _, g := range b.groups {
			if g.VUID != "" && !slices.Contains(vuids[b.check], g.VUID) {
				vuids[b.check] = append(vuids[b.check], g.VUID)
			}
		}
		run.Results = append(run.Results, sarifResultOf(s, b, ri, root, repo))
	}
	uniqueFingerprints(run.Results)
	if n := unplaced(run.Results); n > 0 {
		repo.warnings = append(repo.warnings, fmt.Sprintf("%d %s no source file (shaders without debug information: compile them "+
			"with glslangValidator -g or dxc -Zi): code scanning lists %s without a place in the repository", n,
			plural(n, "result has", "results have"), plural(n, "it", "them")))
	}
	for check, v := range vuids {
		r := &run.Tool.Driver.Rules[rules[check]]
		r.Properties = map[string]any{"vuids": v}
		if len(v) == 1 {
			r.HelpURI = vuidURI(v[0])
		}
	}
	inv := invocationOf(s)
	for _, n := range repo.notes {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note", Message: sarifText{n}})
	}
	for _, w := range repo.warnings {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "warning", Message: sarifText{w}})
		if opt.Warn != nil {
			opt.Warn(w)
		}
	}
	run.Invocations = []sarifInvocation{inv}
	props := map[string]any{"submits": s.Submits}
	if s.Device.Name != "" {
		props["device"] = s.Device
	}
	if s.Dropped > 0 {
		props["dropped_records"] = s.Dropped
	}
	if s.LostRecords > 0 {
		props["lost_records"] = s.LostRecords
		if len(s.LostGroups) > 0 {
			props["lost_groups"] = s.LostGroups
		}
	}
	if s.LostMessages > 0 {
		props["lost_messages"] = s.LostMessages
	}
	if len(s.Hangs) > 0 {
		// Each is an error notification of the invocation too (its notice).
		props["hangs"] = s.Hangs
	}
	if u := s.UncheckedAll(); len(u) > 0 {
		props["unchecked"] = u
	}
	props["coverage"] = s.Coverage()
	run.Properties = props
	log := sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	return encodeJSON(w, &log)
}

// unplaced counts the results with no physical location.
func unplaced(results []sarifResult) int {
	n := 0
	for _, r := range results {
		if r.Locations[0].PhysicalLocation == nil {
			n++
		}
	}
	return n
}

// WriteSARIFFile writes the SARIF log to path ("-" is standard output).
func WriteSARIFFile(path string, s *Session, opt SARIFOptions) error {
	if path == "-" {
		return WriteSARIFWith(os.Stdout, s, opt)
	}
	mode := opt.Mode
	if mode == 0 {
		mode = ReportMode
	}
	return writeFile("SARIF", path, mode, func(w io.Writer) error { return encodeSARIF(w, s, opt) })
}

// newRule is the rule of a check: its title and help from the check
// registry, said the way the run's on_error makes true (ruleHelp), or a
// generic text for a check this build does not know.
func newRule(check string, set Settings) sarifRule {
	short := "GPU-assisted validation error " + check
	help := "A check of gpuav-dbg failed in a shader; see the result's message."
	if c := gpuav.CheckByID(check); c != nil {
		short, help = c.Title, ruleHelp(c, set)
	}
	return sarifRule{ID: check, Name: camelName(check), ShortDescription: sarifText{short},
		FullDescription: sarifText{help}, Help: sarifText{help},
		DefaultConfiguration: sarifConfig{Level: "error"}}
}

// camelName turns descriptor_index_oob into DescriptorIndexOob (SARIF's
// rule name convention).
func camelName(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		switch {
		case r == '_' || r == '-' || r == ' ':
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// vuidURI links a VUID in the Vulkan specification.
func vuidURI(vuid string) string {
	return "https://registry.khronos.org/vulkan/specs/latest/html/vkspec.html#" + vuid
}

// groupLevel is a group's SARIF level: every check is a violation of a
// valid-usage rule, an error, except what the group marks as a warning
// (defined behaviour under robustBufferAccess).
func groupLevel(g *ErrorGroup) string {
	if g.IsWarning() {
		return "warning"
	}
	return "error"
}

// shaderName names a group's shader module for a logical location:
// its debug name, else "shader N (module 0x...)".
func shaderName(g *ErrorGroup) string {
	switch {
	case g.Shader.Name != "":
		return g.Shader.Name
	case g.Shader.Module != "":
		return fmt.Sprintf("shader %d (module %s)", g.Shader.ID, g.Shader.Module)
	case g.Shader.Object != "":
		return fmt.Sprintf("shader %d (shader object %s)", g.Shader.ID, g.Shader.Object)
	}
	return fmt.Sprintf("shader %d", g.Shader.ID)
}

// artifactLocation locates a source file: relative to %SRCROOT% when it is
// relative or below root, an absolute file URI otherwise.
func artifactLocation(file, root string) sarifArtifactLoc {
	if !filepath.IsAbs(file) {
		return sarifArtifactLoc{URI: escapePath(filepath.ToSlash(filepath.Clean(file))), URIBaseID: SourceRootID}
	}
	if rel, err := filepath.Rel(root, file); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return sarifArtifactLoc{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: SourceRootID}
	}
	return sarifArtifactLoc{URI: fileURI(file, false)}
}

// RepoRoot is the top-level directory of the git checkout holding dir (the
// nearest directory upwards with a .git directory or file), or dir itself
// outside a checkout: the root code scanning resolves paths against.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return abs
		}
	}
}

// escapePath percent-escapes each segment of a slash-separated path.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fileURI is the file: URI of an absolute path; dir adds the trailing
// slash a base URI needs.
func fileURI(path string, dir bool) string {
	u := "file://" + escapePath(filepath.ToSlash(path))
	if dir && !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// invocationOf describes the app's run.
func invocationOf(s *Session) sarifInvocation {
	inv := sarifInvocation{
		ExecutionSuccessful: s.App.State != AppFailed && s.App.State != AppCrashed && s.App.State != AppStopped &&
			s.App.State != AppUnknown,
		Arguments:      s.App.Args,
		ExitSignalName: s.App.Signal,
	}
	if s.App.State == AppExited || s.App.State == AppCrashed || s.App.State == AppStopped {
		code := s.App.ExitCode
		inv.ExitCode = &code
	}
	if s.App.Path != "" {
		if filepath.IsAbs(s.App.Path) {
			inv.ExecutableLocation = &sarifArtifactLoc{URI: fileURI(s.App.Path, false)}
		} else {
			inv.ExecutableLocation = &sarifArtifactLoc{URI: escapePath(filepath.ToSlash(s.App.Path))}
		}
	}
	for _, n := range s.Notices {
		level := n.Level
		switch level {
		case "warning", "error":
		default:
			level = "note"
		}
		sn := sarifNotification{Level: level, Message: sarifText{n.Text}}
		if !n.Time.IsZero() {
			sn.TimeUTC = n.Time.UTC().Format(time.RFC3339Nano)
		}
		inv.Notifications = append(inv.Notifications, sn)
	}
	return inv
}
