package notes

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// refreshedKnown is refreshed with a store that forgot nothing.
func refreshedKnown(commit string, built *trace.Record, olds []trace.Record) *trace.Record {
	return refreshed(commit, built, lastOf(olds), func(string, []string) map[string]bool { return map[string]bool{} }, BuildOptions{})
}

// TestRefreshedKeepsForgotten: a refresh of this clone's record keeps
// what the record said of a conversation the store forgot (its entry,
// lines and evidence, the lines taken from the rebuilt record's unknown or
// a person's), and drops one the store still has but no longer links (an
// unlink, a relink), or one of a record git copied from another commit.
func TestRefreshedKeepsForgotten(t *testing.T) {
	const c, pred, w = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "clone-a"
	added := map[string][]gitx.AddedLine{
		"a.go": {{Line: 1, Text: "package a"}, {Line: 2, Text: "func A() {}"}, {Line: 3, Text: "func B() {}"}, {Line: 4, Text: "// by hand"}},
		"b.go": {{Line: 1, Text: "package b"}, {Line: 2, Text: "func C() {}"}},
	}
	x := trace.Link{ID: "conv-x", Agent: "cursor", Title: "X", Confidence: 0.8, Status: "auto", Reason: "lines", WrittenLines: 2, AddedLines: 6}
	y := trace.Link{ID: "conv-y", Agent: "cursor", Title: "Y", Confidence: 0.7, Status: "auto", Reason: "lines", WrittenLines: 2, AddedLines: 6}
	xFiles := trace.Link{ID: "conv-x", Agent: "cursor", Title: "X", Confidence: 0.5, Status: "auto", Reason: "files", MatchedFiles: []string{"a.go"}}
	record := func(commit string, unexamined bool, writers map[string]map[int]string, links ...trace.Link) *trace.Record {
		r := trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Added: added, Writers: writers, Unexamined: unexamined, Links: links, Writer: w})
		return &r
	}
	xy := map[string]map[int]string{"a.go": {2: "conv-x", 3: "conv-x"}, "b.go": {1: "conv-y", 2: "conv-y"}}
	justY := map[string]map[int]string{"b.go": {1: "conv-y", 2: "conv-y"}}
	justX := map[string]map[int]string{"a.go": {2: "conv-x", 3: "conv-x"}}
	yTook := map[string]map[int]string{"a.go": {2: "conv-y", 3: "conv-y"}, "b.go": {1: "conv-y", 2: "conv-y"}}
	for _, tc := range []struct {
		name       string
		built, old *trace.Record
		forgot     bool   // the store forgot conv-x
		want       string // conv-x's part of the result ("" none), as old's ("entry": its entry alone)
		types      string // a.go's contributor of each line
		nilResult  bool
	}{
		{name: "forgotten, another conversation still linked", built: record(c, true, justY, y), old: record(c, false, xy, x, y), forgot: true,
			want: "old", types: "unknown ai ai unknown"},
		{name: "forgotten, alone on the commit", old: record(c, false, justX, x), forgot: true, want: "old", types: "human ai ai human"},
		{name: "forgotten, linked without line evidence", built: record(c, false, nil, y), old: record(c, false, nil, xFiles, y), forgot: true,
			want: "old", types: "mixed mixed mixed mixed"},
		{name: "still here, unlinked", built: record(c, true, justY, y), old: record(c, false, xy, x, y), types: "unknown unknown unknown unknown"},
		{name: "still here, unlinked, alone", old: record(c, false, justX, x), nilResult: true},
		{name: "linked again", built: record(c, false, xy, x, y), old: record(c, false, xy, x, y), forgot: true, want: "built", types: "human ai ai human"},
		{name: "forgotten, its lines now another conversation's", built: record(c, false, yTook, y), old: record(c, false, xy, x, y), forgot: true,
			want: "entry", types: "human ai ai human"},
		{name: "a copy of the rewritten commit's record", built: record(c, true, justY, y), old: record(pred, false, xy, x, y), forgot: true, types: "unknown unknown unknown unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forgot := func(commit string, ids []string) map[string]bool {
				out := map[string]bool{}
				for _, id := range ids {
					out[id] = tc.forgot && id == "conv-x" && commit == c
				}
				return out
			}
			got := refreshed(c, tc.built, tc.old, forgot, BuildOptions{})
			if tc.nilResult {
				if got != nil {
					t.Fatalf("got a record, want none: %s", Encode([]trace.Record{*got}))
				}
				return
			}
			if got == nil {
				t.Fatal("got no record")
			}
			want := ""
			switch tc.want {
			case "old":
				want = part(*tc.old, "conv-x")
			case "built":
				want = part(*tc.built, "conv-x")
			case "entry":
				// Its lines cut to none: no file, no evidence, no line
				// counted as written.
				m, _ := tc.old.Meta()
				cm := m.Conversations["conv-x"]
				cm.WrittenLines = 0
				r := trace.Record{}
				r.SetMeta(trace.Meta{Conversations: map[string]trace.ConvMeta{"conv-x": cm}})
				want = part(r, "conv-x")
			}
			if p := part(*got, "conv-x"); p != want {
				t.Errorf("conv-x in the refreshed record:\n%s\nwant\n%s", p, want)
			}
			if types, twice := contributors(*got, "a.go"); types != tc.types || len(twice) > 0 {
				t.Errorf("a.go's contributors: %q, want %q; lines given twice: %v\n%s", types, tc.types, twice, Encode([]trace.Record{*got}))
			}
			if tc.built != nil && part(*got, "conv-y") != part(*tc.built, "conv-y") {
				t.Errorf("conv-y is not as built:\n%s", Encode([]trace.Record{*got}))
			}
			if m, _ := got.Meta(); m.Writer != w || got.VCS.Revision != c {
				t.Errorf("writer %q, revision %s", m.Writer, got.VCS.Revision)
			}
		})
	}
}

// part is what r says of conversation id: its entry, its files' entries
// and its evidence, as JSON ("" when r does not name it).
func part(r trace.Record, id string) string {
	m, _ := r.Meta()
	cm, ok := m.Conversations[id]
	if !ok {
		return ""
	}
	var files []trace.File
	for _, f := range r.Files {
		for _, c := range f.Conversations {
			if trace.ConversationID(c.URL) == id {
				files = append(files, trace.File{Path: f.Path, Conversations: []trace.Conversation{c}})
			}
		}
	}
	var ev []trace.Evidence
	for _, e := range m.Evidence {
		if e.Conversation == id {
			ev = append(ev, e)
		}
	}
	b, _ := json.Marshal(struct {
		C trace.ConvMeta
		F []trace.File
		E []trace.Evidence
	}{cm, files, ev})
	return string(b)
}

// contributors is the contributor type of each line of path r names, in
// line order, and the lines two entries give.
func contributors(r trace.Record, path string) (types string, twice []int) {
	byLine := map[int]string{}
	last := 0
	for _, f := range r.Files {
		if f.Path != path {
			continue
		}
		for _, c := range f.Conversations {
			for _, rg := range c.Ranges {
				for n := rg.StartLine; n <= rg.EndLine; n++ {
					if byLine[n] != "" {
						twice = append(twice, n)
					}
					byLine[n], last = c.Contributor.Type, max(last, n)
				}
			}
		}
	}
	var out []string
	for n := 1; n <= last; n++ {
		out = append(out, byLine[n])
	}
	return strings.Join(out, " "), twice
}

// outside cuts a range of any length by range arithmetic: a long range is
// cut too (it was kept whole, its lines claimed twice), the content hash
// kept only on a range left whole.
func TestOutside(t *testing.T) {
	r := func(a, b int) trace.Range { return trace.Range{StartLine: a, EndLine: b} }
	h := func(rg trace.Range) trace.Range { rg.ContentHash = "fnv1a64:x"; return rg }
	for _, tc := range []struct {
		name    string
		rg      trace.Range
		claimed []trace.Range
		want    []trace.Range
	}{
		{"none claimed", h(r(1, 5)), nil, []trace.Range{h(r(1, 5))}},
		{"claimed elsewhere", h(r(1, 5)), []trace.Range{r(7, 9)}, []trace.Range{h(r(1, 5))}},
		{"middle", h(r(1, 5)), []trace.Range{r(3, 3)}, []trace.Range{r(1, 2), r(4, 5)}},
		{"overlapping claims", h(r(1, 10)), []trace.Range{r(2, 4), r(3, 6), r(9, 12)}, []trace.Range{r(1, 1), r(7, 8)}},
		{"all", h(r(3, 4)), []trace.Range{r(1, 9)}, nil},
		{"long", h(r(1, 300000)), []trace.Range{r(5, 5), r(250000, 400000)}, []trace.Range{r(1, 4), r(6, 249999)}},
	} {
		if got := outside(tc.rg, tc.claimed); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A forgotten conversation's entry kept by a refresh says what the current
// settings share: its prompt (and a title made from it) gone when prompts
// are no longer shared, its text redacted again; nothing else changes.
func TestRefreshedResharesForgotten(t *testing.T) {
	const c, w = "1111111111111111111111111111111111111111", "clone-a"
	added := map[string][]gitx.AddedLine{"a.go": {{Line: 1, Text: "package a"}, {Line: 2, Text: "func A() {}"}}}
	secret := "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	x := trace.Link{ID: "conv-x", Agent: "cursor", Title: "add the limiter", FirstPrompt: "add the limiter please", Summary: "used " + secret,
		Confidence: 0.8, Status: "auto", Reason: "lines", WrittenLines: 1, AddedLines: 2}
	old := trace.Build(trace.Input{Commit: c, Time: time.Unix(1700000000, 0), Added: added, Writers: map[string]map[int]string{"a.go": {2: "conv-x"}},
		Links: []trace.Link{x}, Writer: w, Prompts: true})
	// An older build redacted less: the secret is in the note as written.
	om, _ := old.Meta()
	cm := om.Conversations["conv-x"]
	cm.Summary = x.Summary
	cm.MatchedFiles = []string{"a.go", "/home/ada/secret/a.go"}
	cm.SharedBy = "clone " + secret
	om.Conversations["conv-x"] = cm
	old.SetMeta(om)
	forgot := func(string, []string) map[string]bool { return map[string]bool{"conv-x": true} }
	for _, prompts := range []bool{true, false} {
		got := refreshed(c, nil, &old, forgot, BuildOptions{Prompts: prompts})
		if got == nil {
			t.Fatal("no record")
		}
		m, _ := got.Meta()
		g := m.Conversations["conv-x"]
		if strings.Contains(g.Summary, secret) || !strings.Contains(g.Summary, "used") {
			t.Errorf("prompts %v: summary %q", prompts, g.Summary)
		}
		if wantPrompt := prompts; (g.FirstPrompt != "") != wantPrompt || (g.Title != "") != wantPrompt {
			t.Errorf("prompts %v: first prompt %q, title %q", prompts, g.FirstPrompt, g.Title)
		}
		if len(g.MatchedFiles) != 1 || g.MatchedFiles[0] != "a.go" || strings.Contains(g.SharedBy, secret) {
			t.Errorf("prompts %v: matched files %q, shared by %q", prompts, g.MatchedFiles, g.SharedBy)
		}
		if g.Confidence != cm.Confidence || g.Agent != "cursor" || len(got.Files) != 1 {
			t.Errorf("prompts %v: more changed than text: %+v\n%s", prompts, g, Encode([]trace.Record{*got}))
		}
	}
}

// forgottenHere against a real links.sqlite: a conversation it has is not
// forgotten on a commit it records; one it never had (a manual link's id,
// an unknown one) is; every conversation is on a commit it does not
// record (forget --repo); the store is asked once per conversation (the
// answer cached: a conversation recorded after the first ask changes
// nothing); when the store fails, every one asked is kept, and the error
// kept for the caller.
func TestForgottenHere(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const c, other = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	if err := st.RecordActivity(ctx, store.Activity{ConversationID: "conv-here", Event: "stop", AtMs: 1700000000000}); err != nil {
		t.Fatal(err)
	}
	f := forgottenHere{st: st, recorded: map[string]bool{c: true}, known: map[string]bool{}}
	want := func(step, commit string, ids []string, exp map[string]bool) {
		t.Helper()
		if got := f.forgot(ctx, commit, ids); !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: %v, want %v", step, got, exp)
		}
	}
	ids := []string{"conv-here", "conv-gone"}
	want("recorded commit", c, ids, map[string]bool{"conv-here": false, "conv-gone": true})
	want("commit not recorded", other, ids, map[string]bool{"conv-here": true, "conv-gone": true})
	if err := st.RecordActivity(ctx, store.Activity{ConversationID: "conv-gone", Event: "stop", AtMs: 1700000000000}); err != nil {
		t.Fatal(err)
	}
	want("cached", c, ids, map[string]bool{"conv-here": false, "conv-gone": true})
	if f.err != nil {
		t.Fatal(f.err)
	}
	st.Close()
	want("store failed", c, []string{"conv-here", "conv-new"}, map[string]bool{"conv-here": false, "conv-new": true})
	if f.err == nil {
		t.Error("the store's error is not kept")
	}
}
