package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/app/prsummary"
)

// prHostile is a prompt that tries to act in every format: a terminal
// escape, HTML, a comment end that would close the data block, a
// javascript: link, and a token share would redact.
const prHostile = "\x1b[31mRed\x1b[0m <script>alert(1)</script></textarea> --> [x](javascript:alert(1)) ghp_0123456789abcdefghijABCDEFGHIJ0123456789\nsecond line"

// prRepo: main, then a branch with an agent's commit (the hostile prompt),
// a person's recorded commit, and one made with the hooks off (no record).
func prRepo(t *testing.T) (*sandbox, string) {
	sb, repo := installedSandbox(t)
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	const conv = "bbbbbbbb-0000-0000-0000-00000000000b"
	sb.capture(repo, conv, "beforeSubmitPrompt", map[string]any{"prompt": prHostile})
	body := "package x\n\nfunc Agent() int {\n\treturn 1\n}\n"
	p := sb.write(repo, "x.go", body)
	sb.capture(repo, conv, "afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
	sb.capture(repo, conv, "afterAgentResponse", map[string]any{"text": "Done: \x1b]0;title\x07 <img src=x onerror=alert(1)> [y](javascript:alert(2))"})
	sb.capture(repo, conv, "stop", map[string]any{"status": "completed", "loop_count": 0})
	sb.commit(repo, "agent: x", "x.go")
	sb.write(repo, "x.go", body+"\n// a person's line\nvar Person = 2\n")
	sb.commit(repo, "person: more", "x.go")
	sb.write(repo, "y.go", "package x\n\nvar Y = 3\n")
	sb.run(repo, "git", "add", "y.go")
	sb.run(repo, "git", "-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", "-m", "hooks off")
	return sb, repo
}

func TestPRFormats(t *testing.T) {
	skipOnWindows(t)
	sb, repo := prRepo(t)
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main", "--format", "json")), &s); err != nil {
		t.Fatal(err)
	}
	h := s.Headline
	if h.Agent != 4 || h.NoEdit != 2 || h.NoRecord != 2 || h.Added != 8 || s.Commits.Total != 3 || s.Commits.Covered != 2 ||
		len(s.Commits.Uncovered) != 1 || s.Commits.Uncovered[0].Subject != "hooks off" || s.NothingRecorded {
		t.Fatalf("headline %+v, commits %+v", h.Lines, s.Commits)
	}
	// --json is --format json; main..HEAD is main.
	var s2 prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main..HEAD", "--json")), &s2); err != nil || s2.Headline.Lines != s.Headline.Lines {
		t.Errorf("--json main..HEAD: %+v (%v)", s2.Headline.Lines, err)
	}
	var prompt string
	for _, hk := range s.Hunks {
		for _, w := range hk.Writers {
			if w.Lines > 0 {
				prompt = w.Prompt
				if w.Evidence != "position" {
					t.Errorf("evidence %q, want position", w.Evidence)
				}
			}
		}
	}
	if !strings.Contains(prompt, "[redacted: github token]") || strings.Contains(prompt, "ghp_") {
		t.Errorf("prompt not redacted: %q", prompt)
	}
	for _, format := range []string{"terminal", "markdown", "json", "html"} {
		out := sb.convo(repo, "pr", "main", "--format", format, "--color", "never")
		if strings.Contains(out, "\x1b") || strings.Contains(out, "ghp_0123") {
			t.Errorf("%s: a raw escape or the token reached the output:\n%q", format, out)
		}
		switch format {
		case "terminal":
			if !strings.Contains(out, "8 added lines") || !strings.Contains(out, "hooks off") || !strings.Contains(out, `\033[31mRed`) {
				t.Errorf("terminal:\n%s", out)
			}
		case "markdown":
			_, body, _ := strings.Cut(out, "\n") // the data block is JSON inside the one comment
			if strings.Count(out, "-->") != 1 || strings.Contains(out, "<script") || strings.Contains(body, "](javascript") ||
				strings.Contains(out, "<img") || !strings.Contains(out, "the agent's answer: “Done") {
				t.Errorf("markdown:\n%s", out)
			}
		case "html":
			if strings.Contains(out, "<script") || strings.Contains(out, "</textarea") || strings.Contains(out, "<img") ||
				!strings.Contains(out, "&lt;script&gt;") || !strings.Contains(out, "&lt;img src=x") {
				t.Errorf("html:\n%s", out)
			}
		}
	}
	if out := sb.convo(repo, "pr", "main", "--color", "always", "--no-pager"); !strings.Contains(out, "\x1b[1m") {
		t.Errorf("--color=always: no bold:\n%q", out)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "pr", "--format", "pdf"); r.code != 2 {
		t.Errorf("--format pdf: exit %d, want 2", r.code)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "pr"); r.code != 2 || !strings.Contains(r.stderr, "no upstream") {
		t.Errorf("no base: exit %d %s", r.code, r.stderr)
	}
}

func TestPRNothingRecorded(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("plain")
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	sb.write(repo, "a.txt", "hello\n")
	sb.commit(repo, "plain", "a.txt")
	for _, format := range []string{"terminal", "markdown", "json", "html"} {
		r := sb.runEnv(repo, sb.env, "", "git", "convo", "pr", "main", "--format", format)
		if r.code != 0 || !strings.Contains(r.stdout, "Nothing recorded for main") {
			t.Errorf("%s: exit %d\n%s\n%s", format, r.code, r.stdout, r.stderr)
		}
	}
}

// TestPRMCPSummary: the MCP tool pr_summary gives what pr --format json
// gives, from the same summary.
func TestPRMCPSummary(t *testing.T) {
	skipOnWindows(t)
	sb, repo := prRepo(t)
	ctx := context.Background()
	session := sb.mcpSession(ctx, repo)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "pr_summary", Arguments: map[string]any{"range": "main..feature"}})
	if err != nil || res.IsError {
		t.Fatalf("pr_summary: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got, want prsummary.Summary
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main..feature", "--json")), &want); err != nil {
		t.Fatal(err)
	}
	if got.Headline.Lines != want.Headline.Lines || got.Commits.Covered != want.Commits.Covered || len(got.Hunks) != len(want.Hunks) ||
		got.Headline.Agent != 4 {
		t.Errorf("pr_summary %+v %+v, pr --json %+v %+v", got.Headline.Lines, got.Commits, want.Headline.Lines, want.Commits)
	}
}

// TestPRTerminal: on a terminal pr follows git's rules as the other read
// commands do: the pager (GIT_PAGER), colour by default, none with
// NO_COLOR or color.ui=never, and no pager or colour for markdown.
func TestPRTerminal(t *testing.T) {
	needScript(t)
	sb, repo := prRepo(t)
	out := sb.onTTY(repo, sb.ttyEnv("GIT_PAGER=sed s/^/P:/"), "git", "convo", "pr", "main")
	if !strings.Contains(out, "P:") || !strings.Contains(out, "\x1b[1m") {
		t.Errorf("a terminal: paged and coloured:\n%q", out)
	}
	if out := sb.onTTY(repo, sb.ttyEnv("GIT_PAGER=cat", "NO_COLOR=1"), "git", "convo", "pr", "main"); strings.Contains(out, "\x1b[") {
		t.Errorf("NO_COLOR: %q", out)
	}
	if out := sb.onTTY(repo, sb.ttyEnv("GIT_PAGER=cat"), "git", "-c", "color.ui=never", "convo", "pr", "main"); strings.Contains(out, "\x1b[") {
		t.Errorf("color.ui=never: %q", out)
	}
	if out := sb.onTTY(repo, sb.ttyEnv("GIT_PAGER=sed s/^/P:/"), "git", "convo", "pr", "main", "--format", "markdown"); strings.Contains(out, "P:") || strings.Contains(out, "\x1b[") {
		t.Errorf("markdown on a terminal: %q", out)
	}
}
