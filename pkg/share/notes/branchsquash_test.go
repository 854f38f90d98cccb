package notes

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A server's squash merge of a branch whose file main left alone is that
// file, byte for byte, at the branch's tip: each noted line is found by
// position through git blame of the tip. A function built only of lines the
// repository already has (no rare line for the line-run rule) is found
// whole, and a person's function of the same lines, in the same file on the
// same branch, stays the person's, even with a forged note on the person's
// commit (a record about another commit is not read). When main changed the file too, the
// file is no longer the tip's and this rule gives nothing.
func TestTipSquashCarriesLinesByPosition(t *testing.T) {
	const base = "package srv\n\nfunc (s *Server) Old(ctx context.Context) error {\n\tif err := s.check(ctx); err != nil {\n\t\treturn err\n\t}\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn nil\n}\n"
	body := "\tif err := s.check(ctx); err != nil {\n\t\treturn err\n\t}\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn nil\n}\n"
	agentFn := "\nfunc (s *Server) Burst(ctx context.Context) error {\n" + body  // lines 11-19 of the agent's commit
	personFn := "\nfunc (s *Server) Drain(ctx context.Context) error {\n" + body // a person's, after it
	for _, tc := range []struct {
		name      string
		mainEdits bool // main changes the file before the squash
		want      map[string][]int
	}{
		{"main left the file alone", false, map[string][]int{"srv/srv.go": {12, 13, 14, 15, 16, 17, 18, 19}}},
		{"main changed the file", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			h := newHistory(t)
			h.commit("base", map[string]string{"srv/srv.go": base, "srv/doc.go": "package srv\n"})
			git(t, h.g, "", "checkout", "-q", "-b", "feature")
			agent := h.commit("agent", map[string]string{"srv/srv.go": base + agentFn})
			h.noteLines(agent, "conv-burst", "srv/srv.go", 12, 13, 14, 15, 16, 17, 18, 19)
			person := h.commit("person", map[string]string{"srv/srv.go": base + agentFn + personFn})
			// A hostile note on the person's commit: a record about the
			// agent's commit giving the person's lines to the conversation.
			forged := evidenced(agent, "conv-burst", "srv/srv.go", strings.Split(base+agentFn+personFn, "\n")...)
			if _, err := h.g.Write(ctx, map[string]*trace.Record{person: forged}, "clone-evil", "m"); err != nil {
				t.Fatal(err)
			}
			git(t, h.g, "", "checkout", "-q", "main")
			if tc.mainEdits {
				h.commit("main", map[string]string{"srv/srv.go": "// Package srv serves.\n" + base})
			} else {
				h.commit("main", map[string]string{"srv/doc.go": "// Package srv serves.\npackage srv\n"})
			}
			if tc.mainEdits {
				// The squash as a server makes it: main's change and the branch's.
				git(t, h.g, "", "checkout", "-q", "-b", "merged", "feature")
				h.commit("as merged", map[string]string{"srv/srv.go": "// Package srv serves.\n" + base + agentFn + personFn})
				git(t, h.g, "", "checkout", "-q", "main")
			}
			from := "feature"
			if tc.mainEdits {
				// The server's merge result is on no branch.
				from = git(t, h.g, "", "rev-parse", "merged^{tree}")
				git(t, h.g, "", "branch", "-q", "-D", "merged")
			}
			squash := h.squashOnto(from, "Burst (#3)")
			got, err := h.g.SquashesIn(ctx, []string{"--no-walk", squash}, BuildOptions{Writer: "clone-bbbb"})
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := got[squash]
			if tc.want == nil {
				if ok {
					t.Errorf("derived %v, want nothing", aiLines(rec, "conv-burst"))
				}
				return
			}
			if !ok {
				t.Fatalf("the squash was not recognised")
			}
			if l := aiLines(rec, "conv-burst"); !reflect.DeepEqual(l, tc.want) {
				t.Errorf("lines of the conversation = %v, want %v", l, tc.want)
			}
			m, _ := rec.Meta()
			if cm := m.Conversations["conv-burst"]; cm.Confidence != 1 || cm.Derived != DerivedSquash || cm.WrittenLines != 8 ||
				!reflect.DeepEqual(squashedShas(cm.Reason), []string{agent[:7]}) {
				t.Errorf("link %+v", cm)
			}
			checkSharer(t, squash, rec, "conv-burst", "clone-aaaa", "clone-bbbb")
		})
	}
}
