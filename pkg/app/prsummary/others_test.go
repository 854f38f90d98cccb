package prsummary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
)

// gitAILog is a git-ai authorship log of commit: lines of app.go by one
// session (tool, id), and one line a person typed (0: none).
func gitAILog(commit, ranges, tool, id string, person int) string {
	key := gitai.SessionKey(tool, id)
	h := ""
	if person > 0 {
		h = "  h_aabbccddeeff00 " + string(rune('0'+person)) + "\n"
	}
	return "app.go\n  " + key + "::t_66554433221100 " + ranges + "\n" + h + "---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + commit + `","prompts":{},` +
		`"sessions":{"` + key + `":{"agent_id":{"tool":"` + tool + `","id":"` + id + `","model":"m-1"}}},` +
		`"humans":{"h_aabbccddeeff00":{"author":"Ann Lee <ann@example.com>"}}}`
}

func addGitAINote(t *testing.T, dir, commit, text string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "note")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "notes", "--ref=ai", "add", "-f", "-F", p, commit)
}

// TestSummarizeOtherTools: git-ai's notes beside git-convo's records, by
// the precedence: git-convo's edit evidence stands (git-ai agrees or
// not); where no recorded edit matched, git-ai's checkpoint answers; a
// session git-convo knows is its conversation; a person's line is a
// person's; without notes the summary is as before.
func TestSummarizeOtherTools(t *testing.T) {
	for _, tc := range []struct {
		name  string
		notes func(f *fixture) map[string]string // commit -> git-ai log
		check func(t *testing.T, f *fixture, s *Summary)
	}{
		{"none", func(*fixture) map[string]string { return nil }, func(t *testing.T, f *fixture, s *Summary) {
			if s.Headline.Agent != 3 || s.Headline.Person != 0 || len(s.Headline.OtherTools) != 0 ||
				len(s.Headline.BySource) != 1 || s.Headline.BySource[0] != (Count{SourceGitConvo, 3}) {
				t.Errorf("headline %+v", s.Headline)
			}
			for _, h := range s.Hunks {
				if h.Claims != nil || len(h.OtherTools) != 0 || h.SourcesAgree+h.SourcesDisagree != 0 {
					t.Errorf("hunk %+v", h)
				}
			}
		}},
		{"agrees with git-convo's edit", func(f *fixture) map[string]string {
			return map[string]string{f.agentC: gitAILog(f.agentC, "3-5", "claude", f.conv, 0)}
		}, func(t *testing.T, f *fixture, s *Summary) {
			if s.Headline.Agent != 3 || s.Headline.BySource[0] != (Count{SourceGitConvo, 3}) || len(s.Headline.OtherTools) != 0 {
				t.Errorf("headline %+v", s.Headline)
			}
			hk := s.Hunks[0] // app.go's one hunk: agentC's and personC's lines
			if hk.SourcesAgree != 3 || len(hk.Claims) != 2 || hk.Claims[0].Tool != "claude" || hk.Claims[1].Source != interop.SourceGitAI {
				t.Errorf("app.go: %d lines agree, claims %+v", hk.SourcesAgree, hk.Claims)
			}
		}},
		{"another session where no edit matched", func(f *fixture) map[string]string {
			return map[string]string{f.personC: gitAILog(f.personC, "8", "codex", "sess-9", 7)}
		}, func(t *testing.T, f *fixture, s *Summary) {
			h := s.Headline
			if h.Agent != 4 || h.Person != 1 || h.NoEdit != 0 || len(h.OtherTools) != 2 {
				t.Errorf("headline %+v", h)
			}
			var hk *Hunk
			for i := range s.Hunks {
				if s.Hunks[i].Person > 0 {
					hk = &s.Hunks[i]
				}
			}
			// Line 7: git-ai's person and git-convo's "no agent edit" agree
			// (a person); line 8: codex's checkpoint stands above it.
			if hk == nil || hk.SourcesDisagree != 1 || hk.SourcesAgree != 1 || len(hk.OtherTools) != 2 || hk.OtherTools[0].Tool != "codex" && hk.OtherTools[1].Tool != "codex" {
				t.Fatalf("person's hunk %+v", hk)
			}
			for _, c := range hk.Claims {
				if c.Source == interop.SourceGitConvo && (c.Attribution != interop.Human || c.Answer != 0 || c.Lines != 2) {
					t.Errorf("git-convo's claim %+v", c)
				}
			}
			if s.Commits.Covered != 2 || len(s.Commits.ByOtherTools) != 0 {
				t.Errorf("commits %+v", s.Commits) // personC was covered by git-convo already
			}
		}},
		{"the conversation's session, on an unrecorded commit", func(f *fixture) map[string]string {
			return map[string]string{f.blindC: "other.go\n" + strings.TrimPrefix(gitAILog(f.blindC, "1,3", "claude", f.conv, 0), "app.go\n")}
		}, func(t *testing.T, f *fixture, s *Summary) {
			h := s.Headline
			if h.Agent != 5 || h.NoRecord != 0 || len(h.ByConversation) != 1 || h.ByConversation[0] != (Count{f.conv, 5}) {
				t.Errorf("headline %+v", h)
			}
			if s.Commits.Covered != 3 || len(s.Commits.ByOtherTools) != 1 || s.Commits.ByOtherTools[0] != (Count{"git-ai's notes", 1}) {
				t.Errorf("commits %+v", s.Commits)
			}
			for _, hk := range s.Hunks {
				if hk.Path == "other.go" && (len(hk.OtherTools) != 1 || hk.OtherTools[0].Conversation != f.conv || len(hk.Writers) != 0) {
					t.Errorf("other.go's hunk %+v", hk)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "add hello")
			for c, log := range tc.notes(f) {
				addGitAINote(t, f.dir, c, log)
			}
			tc.check(t, f, f.summarize(t, f.st, false, "main..feature"))
		})
	}
}

// TestOtherToolsTextInert: another tool's names (model, person, session,
// tool) show escaped in every format.
func TestOtherToolsTextInert(t *testing.T) {
	s := hostileSummary()
	w := OtherWriter{Claim: interop.Claim{Source: interop.SourceGitAI, From: "git-ai's notes", Evidence: "git-ai checkpoint",
		Attribution: interop.Agent, Tool: "t " + hostile, Model: "m " + hostile, Session: "s " + hostile}, Lines: 2, Commit: "0123"}
	p := OtherWriter{Claim: interop.Claim{Source: interop.SourceAgentTrace, From: hostile + "'s Agent Trace record", Evidence: "agent trace range",
		Attribution: interop.Human, Person: "p " + hostile}, Lines: 1}
	s.Headline.OtherTools = []OtherWriter{w, p}
	s.Files[0].OtherTools = []OtherWriter{w, p}
	s.Hunks[0].OtherTools = []OtherWriter{w, p}
	s.Hunks[0].SourcesDisagree = 1
	for name, out := range map[string]string{"markdown": Markdown(s, MarkdownOptions{}), "html": HTML(s)} {
		body := out
		if name == "markdown" {
			_, body, _ = strings.Cut(out, "\n")
		}
		for _, bad := range []string{"\x1b", "\x07", "<script", "<img", "](javascript:", "\u202e"} {
			if strings.Contains(body, bad) && (name == "markdown" || bad != "](javascript:") { // inert text in HTML
				t.Errorf("%s holds %q:\n%s", name, bad, out)
			}
		}
		if n := strings.Count(out, "-->"); name == "markdown" && n != 1 {
			t.Errorf("markdown: %d comment ends", n)
		}
	}
}
