package notes

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// noteLines writes a note for commit saying conv wrote exactly lines (by
// number) of path, as the agent's clone records it by position.
func (h *history) noteLines(commit, conv, path string, lines ...int) {
	h.t.Helper()
	d, err := h.g.diffs(context.Background(), []string{commit})
	if err != nil {
		h.t.Fatal(err)
	}
	in := trace.Input{Commit: commit, Time: time.Unix(h.now, 0), Writer: "clone-aaaa",
		Added: map[string][]gitx.AddedLine{path: d[commit].added[path]}, Writers: map[string]map[int]string{path: {}},
		Links: []trace.Link{{ID: conv, Title: "title of " + conv, Confidence: 1, Status: "auto", PositionLines: len(lines)}}}
	for _, n := range lines {
		in.Writers[path][n] = conv
	}
	r := trace.Build(in)
	if _, err := h.g.Write(context.Background(), map[string]*trace.Record{commit: &r}, "clone-aaaa", "m"); err != nil {
		h.t.Fatal(err)
	}
}

// aiLines is, per path, the lines a record gives to conversation conv.
func aiLines(r trace.Record, conv string) map[string][]int {
	out := map[string][]int{}
	for _, f := range r.Files {
		for _, c := range f.Conversations {
			if c.Contributor == nil || c.Contributor.Type != "ai" || trace.ConversationID(c.URL) != conv {
				continue
			}
			for _, rg := range c.Ranges {
				for n := rg.StartLine; n <= rg.EndLine; n++ {
					out[f.Path] = append(out[f.Path], n)
				}
			}
		}
	}
	return out
}

// A cherry-pick or a server's rebase merge is a copy: the same patch as a
// noted commit. It takes that commit's lines by position, even when every
// line is one that every file repeats (no rare line for the squash rule),
// and a person's lines of the same text in that commit stay the person's.
// A person's commit adding the same text elsewhere is no copy.
func TestCopiesCarryLinesByPosition(t *testing.T) {
	ctx := context.Background()
	const base = "package api\n\nfunc Old() error {\n\treturn nil\n}\n"
	const agentFn = "\nfunc A() error {\n\treturn nil\n}\n"  // lines 6-9 of the agent's commit
	const personFn = "\nfunc H() error {\n\treturn nil\n}\n" // lines 10-13: a person's, same shape
	h := newHistory(t)
	h.commit("base", map[string]string{"api/api.go": base, "api/other.go": "package api\n"})
	git(t, h.g, "", "checkout", "-q", "-b", "feature")
	agent := h.commit("agent and person", map[string]string{"api/api.go": base + agentFn + personFn})
	h.noteLines(agent, "conv-cp", "api/api.go", 6, 7, 8, 9)
	git(t, h.g, "", "checkout", "-q", "main")
	// main moves on: a line at the top, so the copy's lines move down one.
	h.commit("doc", map[string]string{"api/api.go": "// Package api.\n" + base})
	// A person adds the agent's function's text somewhere else: not a copy.
	same := h.commit("same text", map[string]string{"api/other.go": "package api\n" + agentFn})
	h.now += 60
	date := fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", h.now)
	gd := Git{Dir: h.g.Dir, Env: append(append([]string{}, h.g.Env...), date)}
	git(t, gd, "", "cherry-pick", agent)
	pick := git(t, h.g, "", "rev-parse", "HEAD")

	got, err := h.g.SquashesIn(ctx, []string{"--no-walk", pick, same, agent + "^"}, BuildOptions{Writer: "clone-bbbb"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[same]; ok {
		t.Errorf("a person's commit with the agent's text was derived: %+v", got[same])
	}
	rec, ok := got[pick]
	if !ok {
		t.Fatalf("the cherry-pick was not recognised (%d records)", len(got))
	}
	if want := map[string][]int{"api/api.go": {7, 8, 9, 10}}; !reflect.DeepEqual(aiLines(rec, "conv-cp"), want) {
		t.Errorf("lines of the conversation = %v, want %v", aiLines(rec, "conv-cp"), want)
	}
	m, _ := rec.Meta()
	cm := m.Conversations["conv-cp"]
	if !strings.HasPrefix(cm.Reason, copyReason+agent[:7]+": ") || cm.Derived != DerivedSquash || cm.Confidence != 1 ||
		cm.WrittenLines != 3 || m.Writer != "clone-bbbb" {
		t.Errorf("link %+v (writer %q)", cm, m.Writer)
	}
	checkSharer(t, pick, rec, "conv-cp", "clone-aaaa", "clone-bbbb")
	if s := squashedShas(cm.Reason); !reflect.DeepEqual(s, []string{agent[:7]}) {
		t.Errorf("squashedShas(%q) = %q", cm.Reason, s)
	}

	// The noted commit's own line of history is never a copy of it: the
	// agent's commit made again on top of itself (a revert and a redo).
	git(t, h.g, "", "checkout", "-q", "feature")
	git(t, h.g, "", "revert", "--no-edit", agent)
	h.now += 60
	gd.Env[len(gd.Env)-1] = fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", h.now)
	git(t, gd, "", "cherry-pick", agent)
	redo := git(t, h.g, "", "rev-parse", "HEAD")
	got, err = h.g.SquashesIn(ctx, []string{"--no-walk", redo}, BuildOptions{Writer: "clone-bbbb"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[redo]; ok {
		t.Errorf("a descendant of the noted commit was taken for its copy")
	}
}
