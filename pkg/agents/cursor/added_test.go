package cursor

import (
	"fmt"
	"strings"
	"testing"
)

// TestAddedTextManyFiles: an ApplyPatch naming thousands of files gives each
// its text, with work that grows linearly: matching a patch's names to the
// edited files once scanned every file for every name (and built a string
// each time), quadratic; the allocations count shows it without a clock.
func TestAddedTextManyFiles(t *testing.T) {
	const n = 3000
	var patch strings.Builder
	for i := range n {
		fmt.Fprintf(&patch, "*** Add File: src/internal/generated/pkg%d/file_with_a_long_name_%d.go\n+package f%d\n", i%50, i, i)
	}
	p := &Payload{Event: "postToolUse", ToolName: "ApplyPatch", WorkspaceRoots: []string{"/work/repo"},
		ToolInput: map[string]any{"patch": patch.String()}}
	got := p.AddedText()
	if len(got) != n || got["/work/repo/src/internal/generated/pkg7/file_with_a_long_name_7.go"][0] != "package f7\n" {
		t.Fatalf("%d files; f7: %q", len(got), got["/work/repo/src/internal/generated/pkg7/file_with_a_long_name_7.go"])
	}
	if allocs := testing.AllocsPerRun(1, func() { p.AddedText() }); allocs > 40*n {
		t.Errorf("%.0f allocations for %d files: not linear", allocs, n)
	}
}
