package notes

import (
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A record is read only on the commit it is about, and a withdrawal drops
// the derived links of that conversation (any writer's), never a link a
// clone recorded.
func TestClaims(t *testing.T) {
	h := strings.Repeat("a", 40)
	other := strings.Repeat("b", 40)
	derived := func(commit, conv, reason, mark string) trace.Record {
		r := *evidenced(commit, conv, "f.go", "func F() {", "\tg()", "}")
		m, _ := r.Meta()
		c := m.Conversations[conv]
		c.Reason, c.Derived = reason, mark
		m.Conversations[conv] = c
		r.SetMeta(m)
		return r
	}
	withdrawal := func(conv string) trace.Record {
		return trace.Build(trace.Input{Commit: h, Writer: "clone-w", Withdrawn: []trace.Withdrawal{{Conversation: conv}}})
	}
	for _, tc := range []struct {
		name string
		recs []trace.Record
		want []string // conversations left, sorted
	}{
		{"about the commit", []trace.Record{*evidenced(h, "c1", "f.go", "x")}, []string{"c1"}},
		{"about another commit", []trace.Record{*evidenced(other, "c1", "f.go", "x")}, nil},
		{"no vcs", []trace.Record{{Files: []trace.File{}}}, nil},
		{"a derived link withdrawn", []trace.Record{derived(h, "c1", "squash of 1234567: 3 of 3", DerivedSquash), withdrawal("c1")}, nil},
		{"an old-rule link withdrawn", []trace.Record{derived(h, "c1", "squash of 1234567", ""), withdrawal("c1")}, nil},
		{"a recorded link is not withdrawn", []trace.Record{*evidenced(h, "c1", "f.go", "x"), withdrawal("c1")}, []string{"c1"}},
		{"another conversation stays", []trace.Record{derived(h, "c2", "squash of 1234567", DerivedSquash), withdrawal("c1")}, []string{"c2"}},
		{"a withdrawal about another commit counts for nothing", []trace.Record{derived(h, "c1", "squash of 1", DerivedSquash),
			trace.Build(trace.Input{Commit: other, Withdrawn: []trace.Withdrawal{{Conversation: "c1"}}})}, []string{"c1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			if rec, ok := Combine(claims(h, tc.recs)); ok {
				for _, lc := range Linked(h, rec) {
					got = append(got, lc.ConversationID)
				}
				for _, f := range rec.Files {
					for _, c := range f.Conversations {
						if id := trace.ConversationID(c.URL); id != "" && !contains(tc.want, id) {
							t.Errorf("%s still has lines of %s", f.Path, id)
						}
					}
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("links %v, want %v", got, tc.want)
			}
		})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// A note cannot mark its own links copied by rewrite: only the reader
// says so (carry), with the confidence a copy loses.
func TestClaimsUnmarkRewrites(t *testing.T) {
	h := strings.Repeat("a", 40)
	r := *evidenced(h, "c1", "f.go", "x")
	m, _ := r.Meta()
	c := m.Conversations["c1"]
	c.RewrittenFrom = strings.Repeat("b", 40)
	m.Conversations["c1"] = c
	r.SetMeta(m)
	got := claims(h, Decode(Encode([]trace.Record{r})))
	if len(got) != 1 {
		t.Fatalf("claims: %d records, want 1", len(got))
	}
	gm, _ := got[0].Meta()
	if from := gm.Conversations["c1"].RewrittenFrom; from != "" {
		t.Errorf("a note's own rewritten_from was kept: %q", from)
	}
}
