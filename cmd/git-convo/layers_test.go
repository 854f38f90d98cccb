package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayers: the import rules of docs/architecture.md. A package may
// import the layers below it only; an agent's package is reached through
// the registry (pkg/agents) and registered in pkg/agents/builtin alone.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "github.com/git-convo/git-convo/...").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v %s", err, out)
	}
	const mod = "github.com/git-convo/git-convo/"
	agentPkgs := []string{"pkg/agents/cursor", "pkg/agents/claude", "pkg/agents/vscode", "pkg/agents/codex", "pkg/agents/gemini", "pkg/agents/copilot"}
	// front: the front ends and the application layer they call, which no
	// layer below imports.
	front := []string{"pkg/cli", "pkg/mcpserver", "pkg/app"}
	write := []string{"pkg/write/ingest", "pkg/write/hookrun", "pkg/write/autolink"}
	all := func(lists ...[]string) []string {
		var out []string
		for _, l := range lists {
			out = append(out, l...)
		}
		return out
	}
	// never: what each package must never import (a prefix ending in "/"
	// bans what lies below it).
	never := map[string][]string{
		"pkg/agents/source":        {"pkg/"}, // the seam imports nothing of git-convo but the algorithms below
		"pkg/attribution/position": {"pkg/"},
		"pkg/agents/cursor":        all([]string{"pkg/agents", "pkg/store", "pkg/agents/claude"}, write, front),
		"pkg/agents/claude":        all([]string{"pkg/agents", "pkg/store", "pkg/agents/cursor", "pkg/agents/vscode"}, write, front),
		"pkg/agents/vscode":        all([]string{"pkg/agents", "pkg/store", "pkg/agents/cursor", "pkg/agents/claude"}, write, front),
		"pkg/agents/codex":         all([]string{"pkg/agents", "pkg/store", "pkg/agents/cursor", "pkg/agents/claude", "pkg/agents/vscode", "pkg/agents/gemini"}, write, front),
		"pkg/agents/gemini":        all([]string{"pkg/agents", "pkg/store", "pkg/agents/cursor", "pkg/agents/claude", "pkg/agents/vscode", "pkg/agents/codex"}, write, front),
		"pkg/agents/copilot":       all([]string{"pkg/agents", "pkg/store", "pkg/agents/cursor", "pkg/agents/claude", "pkg/agents/vscode", "pkg/agents/codex", "pkg/agents/gemini"}, write, front),
		"pkg/agents":               all(agentPkgs, write, front),
		"pkg/store":                all([]string{"pkg/agents", "pkg/agents/source", "pkg/git/gitx"}, agentPkgs, write, front),
		"pkg/write/ingest":         all([]string{"pkg/write/hookrun"}, agentPkgs, front),
		"pkg/write/hookrun":        all(agentPkgs, front),
		// The front ends reach the store, sharing (notes, other tools'
		// records, Agent Trace, the fetch watch) and the write path (the
		// hooks, the recorder, git's hook files, the queue and the spool)
		// through the application layer (pkg/app) only. Capture's fast
		// path loses nothing by it: pkg/app links them all the same
		// (TestStartupLinksNoHeavyPackages holds what the binary links).
		"pkg/cli":              all([]string{"pkg/mcpserver", "pkg/agents/builtin", "pkg/store", "pkg/store/", "pkg/share/", "pkg/write/"}, agentPkgs),
		"pkg/mcpserver":        all([]string{"pkg/cli", "pkg/agents/builtin", "pkg/store", "pkg/store/", "pkg/share/", "pkg/write/"}, agentPkgs),
		"pkg/app":              all([]string{"pkg/cli", "pkg/mcpserver", "pkg/agents/builtin"}, agentPkgs),
		"pkg/app/prsummary":    all(agentPkgs, write, front),
		"pkg/git/gitx":         {"pkg/"}, // but its own in-process readers (allowed)
		"pkg/git/odb":          {"pkg/"},
		"pkg/git/gitconfig":    {"pkg/"},
		"pkg/attribution/link": {"pkg/"},
	}
	// allowed: exceptions to never, pure algorithms a package may use
	// (locating and carrying lines, hashing them).
	allowed := map[string][]string{
		"pkg/agents/source":        {"pkg/attribution/position", "pkg/attribution/link"},
		"pkg/attribution/position": {"pkg/attribution/link"},
		"pkg/git/gitx":             {"pkg/git/odb", "pkg/git/gitconfig"},
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, mod)
		seen[pkg] = true
		if strings.HasPrefix(pkg, "pkg/util/") { // the general helpers: each other only
			for _, imp := range strings.Fields(imports) {
				if imp = strings.TrimPrefix(imp, mod); strings.HasPrefix(imp, "pkg/") && !strings.HasPrefix(imp, "pkg/util/") {
					t.Errorf("%s imports %s (docs/architecture.md: a general helper imports only the others)", pkg, imp)
				}
			}
		}
		rules, ok := never[pkg]
		if !ok {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			imp = strings.TrimPrefix(imp, mod)
			if slices.Contains(allowed[pkg], imp) {
				continue
			}
			for _, banned := range rules {
				if imp == banned || (strings.HasSuffix(banned, "/") && strings.HasPrefix(imp, banned)) {
					t.Errorf("%s imports %s (docs/architecture.md: it must not)", pkg, imp)
				}
			}
		}
	}
	// A rule for a package that is not there (moved, renamed) holds nothing.
	for pkg := range never {
		if !seen[pkg] {
			t.Errorf("a rule names %s, which is no package: update docs/architecture.md and this test", pkg)
		}
	}
}
