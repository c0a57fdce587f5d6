package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
)

// ctestFiles are the files the C half's unit test links: its tables
// (ctest/ctest.c) and the pure rooms it tests (facts.h is inline), with
// nothing else of the layer (no Vulkan call, no Go export:
// docs/layer-map.md).
var ctestFiles = []string{"ctest/ctest.c", "hmap.c", "prepass_pack.c", "crumbs_marks.c"}

// buildCTest compiles the C unit test with the C apps' compiler flags.
func buildCTest(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv(EnvPrebuilt); dir != "" {
		// Built with the suite (scripts/hardware/build.sh layer-tests):
		// the machine it runs on may have no C compiler.
		return filepath.Join(dir, "ctest")
	}
	bin := filepath.Join(t.TempDir(), "ctest")
	args := append([]string{}, cbuild.Flags...)
	args = append(args, "-DVK_NO_PROTOTYPES", "-I", ".", "-o", bin)
	args = append(args, ctestFiles...)
	if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		t.Fatalf("cc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// TestCHalfUnits runs the C unit test of the handle map, the action facts,
// the pre-pass job packing and the breadcrumbs' marks and reading: every
// table passes.
func TestCHalfUnits(t *testing.T) {
	bin := buildCTest(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "CTEST_WRONG=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ctest: %v\n%s", err, out)
	}
	for _, table := range []string{"hmap", "facts", "prepass_pack", "crumbs"} {
		if !strings.Contains(string(out), "table "+table+": 0 failed\n") {
			t.Errorf("table %s did not run clean:\n%s", table, out)
		}
	}
	if !strings.Contains(string(out), " checks, 0 failed\n") {
		t.Errorf("no summary:\n%s", out)
	}
}

// TestCHalfUnitsCanFail runs the C unit test with every expected value
// off by one: it must fail, and every table with it.
func TestCHalfUnitsCanFail(t *testing.T) {
	bin := buildCTest(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "CTEST_WRONG=1")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("ctest with wrong expectations: %v, want exit status 1\n%s", err, out)
	}
	for _, table := range []string{"hmap", "facts", "prepass_pack", "crumbs"} {
		if strings.Contains(string(out), "table "+table+": 0 failed\n") {
			t.Errorf("table %s passed with wrong expectations:\n%s", table, out)
		}
	}
}
