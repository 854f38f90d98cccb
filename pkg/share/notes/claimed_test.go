package notes

import (
	"context"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestMergeLinkedClaimed: one read of the notes merges the links
// MergeLinked merges and marks recorded the commits the local database
// lacked (one already recorded locally among them); AddIn then gives the
// lines asked, and only those, whatever a range claims (1..2,000,000,000
// would be walked), a local writer staying.
func TestMergeLinkedClaimed(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 3)
	huge := record(hs[0], "a@x", "ca")
	huge.Files = []trace.File{{Path: "a.go", Conversations: []trace.Conversation{{URL: trace.ConversationURL("ca"),
		Contributor: &trace.Contributor{Type: "ai"}, Ranges: []trace.Range{{StartLine: 1, EndLine: 2000000000}}}}}}
	if _, err := g.Write(ctx, map[string]*trace.Record{hs[0]: huge, hs[1]: record(hs[1], "a@x", "cb")}, "a@x", "m"); err != nil {
		t.Fatal(err)
	}
	rd := NewReader(ctx, g.Dir)
	defer rd.Close()
	start := func() (map[string][]store.LinkedConversation, map[string]bool) {
		return map[string][]store.LinkedConversation{hs[1]: {{Link: store.Link{ConversationID: "cb", Source: "hook"}}}},
			map[string]bool{hs[1]: true}
	}
	wantLinked, _ := start()
	if err := rd.MergeLinked(ctx, hs, wantLinked); err != nil {
		t.Fatal(err)
	}
	linked, recorded := start()
	claimed, err := rd.MergeLinkedClaimed(ctx, hs, linked, recorded)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(linked, wantLinked) || len(linked[hs[0]]) != 1 {
		t.Errorf("linked %+v, want %+v", linked, wantLinked)
	}
	if !recorded[hs[0]] || !recorded[hs[1]] || recorded[hs[2]] {
		t.Errorf("recorded %v", recorded)
	}
	local := store.LineWriter{ConversationID: "mine", Evidence: store.EvidencePosition}
	writers := map[string]map[string]map[int]store.LineWriter{hs[0]: {"a.go": {7: local}}}
	claimed.AddIn(writers, map[string]map[string][]int{hs[0]: {"a.go": {7, 2, 5}, "b.go": {1}}})
	note := store.LineWriter{ConversationID: "ca", Evidence: store.EvidenceText}
	if want := (map[string]map[string]map[int]store.LineWriter{hs[0]: {"a.go": {2: note, 5: note, 7: local}}}); !reflect.DeepEqual(writers, want) {
		t.Errorf("writers %v, want %v", writers, want)
	}
}
