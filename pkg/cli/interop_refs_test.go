package cli

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/store"
)

// gitAIRangesFor is a git-ai note on commit whose session (model) wrote
// lines of path and no person any: ranges as git-ai writes them ("4-6").
func gitAIRangesFor(commit, path, model, ranges string) string {
	return path + "\n  s_00112233445566::t_66554433221100 " + ranges + "\n---\n" +
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"` + commit + `","prompts":{},` +
		`"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"sess-1","model":"` + model + `"}}},"humans":{}}`
}

// TestGitAINoteOnTwoRefs: install fetches a remote's git-ai notes into
// refs/notes/remotes/<remote>/ai, so a commit can have its note on both
// refs/notes/ai and a remote's copy. It has one note: the local ref's
// (its lines counted once, a differing copy not read), else the first
// remote's by name. blame, log (reading the notes, inline with %N, and
// from links.sqlite's index), show, pr and stats all say so.
func TestGitAINoteOnTwoRefs(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("tworefs")
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	six := "l1\nl2\nl3\nl4\nl5\nl6\n"
	// a.go: the same note on refs/notes/ai and origin's copy.
	sb.write(repo, "a.go", six)
	c1 := sb.commit(repo, "a", "a.go")
	sb.addRawNote(repo, "refs/notes/ai", c1, gitAINoteFor(c1, "a.go", "local-model"))
	sb.addRawNote(repo, "refs/notes/remotes/origin/ai", c1, gitAINoteFor(c1, "a.go", "local-model"))
	// b.go: origin's copy differs (another model, lines 4-6): the local note wins.
	sb.write(repo, "b.go", six)
	c2 := sb.commit(repo, "b", "b.go")
	sb.addRawNote(repo, "refs/notes/ai", c2, gitAINoteFor(c2, "b.go", "local-model"))
	sb.addRawNote(repo, "refs/notes/remotes/origin/ai", c2, gitAIRangesFor(c2, "b.go", "remote-model", "1-6"))
	// c.go: no local note; two remotes' copies differ: alpha's (first by name) wins.
	sb.write(repo, "c.go", six)
	c3 := sb.commit(repo, "c", "c.go")
	sb.addRawNote(repo, "refs/notes/remotes/zed/ai", c3, gitAIRangesFor(c3, "c.go", "zed-model", "1-6"))
	sb.addRawNote(repo, "refs/notes/remotes/alpha/ai", c3, gitAIRangesFor(c3, "c.go", "alpha-model", "1-2"))

	// blame: one claim a line, the winning note's.
	for _, tc := range []struct {
		path  string
		want  []string // per line: the claim's model, "Ann" for the person, "" none
		model string
	}{
		{"a.go", []string{"local-model", "local-model", "local-model", "", "Ann", ""}, ""},
		{"b.go", []string{"local-model", "local-model", "local-model", "", "Ann", ""}, ""},
		{"c.go", []string{"alpha-model", "alpha-model", "", "", "", ""}, ""},
	} {
		lines := sb.blameJSON(repo, tc.path)
		if len(lines) != 6 {
			t.Fatalf("%s: %d lines", tc.path, len(lines))
		}
		for i, w := range tc.want {
			cs := lines[i].Claims
			got := ""
			if len(cs) > 0 {
				got = cs[0].Model
				if cs[0].Person != "" {
					got = "Ann"
				}
			}
			if w == "" && len(cs) != 0 || w != "" && (len(cs) != 1 || got != w) {
				t.Errorf("%s line %d: %d claim(s) %+v, want one of %q", tc.path, i+1, len(cs), cs, w)
			}
		}
	}

	// log: each commit's writers counted once, from the winning note;
	// reading the notes, inline (%N), and from the index alike.
	checkLog := func(what, out string) {
		t.Helper()
		if strings.Contains(out, "remote-model") || strings.Contains(out, "zed-model") || strings.Contains(out, "6 line(s)") {
			t.Errorf("log (%s) reads a copy of a note:\n%s", what, out)
		}
		if n := strings.Count(out, "local-model) (3 line(s)"); n != 2 {
			t.Errorf("log (%s): %d commits with local-model's 3 lines, want 2:\n%s", what, n, out)
		}
		if !strings.Contains(out, "alpha-model) (2 line(s)") {
			t.Errorf("log (%s) lacks alpha's 2 lines:\n%s", what, out)
		}
	}
	read := sb.convo(repo, "log", "--oneline", "--no-notes")
	checkLog("reading the notes", read)
	checkLog("inline", sb.convo(repo, "log", "--oneline"))
	if _, err := os.Stat(sb.linksDB); err == nil {
		t.Fatal("links.sqlite before any recording: the runs above read no index")
	}
	st, err := store.Open(context.Background(), sb.linksDB, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, what := range []string{"index built", "index as it is"} {
		if got := sb.convo(repo, "log", "--oneline"); got != read {
			t.Errorf("log from the %s:\n%s\nreading the notes:\n%s", what, got, read)
		}
	}

	// show: the winning note's writers, once.
	for _, tc := range []struct {
		commit, model string
		lines         int
	}{{c1, "local-model", 3}, {c2, "local-model", 3}, {c3, "alpha-model", 2}} {
		var obj struct {
			OtherTools []app.OtherWriter `json:"otherTools"`
		}
		if err := json.Unmarshal([]byte(sb.convo(repo, "show", "--json", tc.commit)), &obj); err != nil {
			t.Fatal(err)
		}
		if len(obj.OtherTools) == 0 || obj.OtherTools[0].Model != tc.model || obj.OtherTools[0].Lines != tc.lines ||
			len(obj.OtherTools) > 2 || len(obj.OtherTools) == 2 && obj.OtherTools[1].Lines != 1 {
			t.Errorf("show %.7s: %+v", tc.commit, obj.OtherTools)
		}
	}

	// pr: a.go and b.go 3 lines claude's and 1 Ann's each, c.go 2 claude's.
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(sb.convo(repo, "pr", "main", "--format", "json")), &s); err != nil {
		t.Fatal(err)
	}
	if h := s.Headline; h.Added != 18 || h.Agent != 8 || h.Person != 2 {
		t.Errorf("pr headline %+v", h.Lines)
	}
	for _, w := range s.Headline.OtherTools {
		if w.Model == "remote-model" || w.Model == "zed-model" || w.Model == "local-model" && w.Lines != 6 {
			t.Errorf("pr's other tools: %+v", w)
		}
	}

	// stats: the agent's lines of the winning notes.
	var sj statsJSON
	if err := json.Unmarshal([]byte(sb.convo(repo, "stats", "--json")), &sj); err != nil {
		t.Fatal(err)
	}
	if sj.Agent != 8 || sj.Sources["git-ai's notes"] != 3 {
		t.Errorf("stats: %+v", sj)
	}
}
