package notes

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// shared builds a record of commit linking conv (active at activeMs) that
// wrote lines of path, or only matched it when matched is set.
func shared(commit, conv, path string, activeMs int64, matched bool) trace.Record {
	in := trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: "t@example.com",
		Links: []trace.Link{{ID: conv, Title: "title of " + conv, Summary: "about " + conv, Confidence: 0.9, Status: "auto", ActivityMs: activeMs}}}
	if matched {
		in.Links[0].MatchedFiles = []string{path}
	} else {
		in.Added = map[string][]gitx.AddedLine{path: {{Line: 1, Text: "x := 1"}}}
		in.Writers = map[string]map[int]string{path: {1: conv}}
	}
	return trace.Build(in)
}

func TestAddConversations(t *testing.T) {
	const h1, h2, h3, h4 = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222",
		"3333333333333333333333333333333333333333", "4444444444444444444444444444444444444444"
	recs := map[string]trace.Record{
		h1: shared(h1, "lines", "a.go", 3000, false),  // wrote lines of a.go
		h2: shared(h2, "matched", "a.go", 2000, true), // matched a.go, no lines
		h3: shared(h3, "other", "b.go", 2000, false),  // same activity as matched: ties by id
		h4: shared(h4, "lines", "c.go", 1000, false),  // a second commit of "lines"
	}
	local := []store.ConversationSummary{{Conversation: store.Conversation{ID: "mine", ActivityMs: 2500}, Commits: 1}}
	for _, tc := range []struct {
		name string
		f    store.ConversationFilter
		want string
	}{
		{"all, most recent first", store.ConversationFilter{}, "lines:2 mine:1 matched:1 other:1"},
		{"a file by lines or matched files", store.ConversationFilter{FileKey: repokey.PathKey("a.go")}, "lines:1 mine:1 matched:1"},
		{"a file by lines only", store.ConversationFilter{FileKey: repokey.PathKey("b.go")}, "mine:1 other:1"},
		{"since", store.ConversationFilter{SinceMs: 2500}, "lines:2 mine:1"},
		{"limit, after the merge", store.ConversationFilter{Limit: 2}, "lines:2 mine:1"},
		{"a local conversation is never doubled", store.ConversationFilter{}, "lines:2 mine:1 matched:1 other:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, cs := range AddConversations(recs, append([]store.ConversationSummary(nil), local...), tc.f) {
				got = append(got, cs.ID+":"+string(rune('0'+cs.Commits)))
				if cs.ID != "mine" && cs.Title != "title of "+cs.ID {
					t.Errorf("%s: title %q", cs.ID, cs.Title)
				}
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
	docs, found := SearchDocs(recs, []store.SearchDoc{{Conversation: store.Conversation{ID: "mine", Title: "about other"}}}, []string{"ABOUT", "other"}, store.ConversationFilter{Limit: 1})
	if len(docs) != 2 || docs[1].ID != "other" || !found["other"] || found["mine"] {
		t.Errorf("SearchDocs: %+v %v", docs, found)
	}
}

func TestLocalTitles(t *testing.T) {
	linked := map[string][]store.LinkedConversation{"h": {
		{Link: store.Link{ConversationID: "untitled", Source: SourceNotes}},
		{Link: store.Link{ConversationID: "titled", Source: SourceNotes}, Conv: store.Conversation{Title: "from the note"}},
		{Link: store.Link{ConversationID: "local"}},
	}}
	asked := map[string]int{}
	LocalTitles(context.Background(), linked, func(_ context.Context, id string) (*store.Conversation, error) {
		asked[id]++
		return &store.Conversation{ID: id, Title: "local title", Summary: "local summary"}, nil
	})
	got := linked["h"]
	if got[0].Conv.Title != "local title" || got[0].Conv.Summary != "local summary" || got[1].Conv.Title != "from the note" ||
		got[2].Conv.Title != "" || len(asked) != 1 {
		t.Errorf("LocalTitles: %+v, asked %v", got, asked)
	}
	LocalTitles(context.Background(), linked, nil) // no database: nothing to do, no panic
}
