package notes

import (
	"context"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestMergeLinkedClaimedAsTwoCalls: one read of the notes merges what
// MergeLinked and MergeClaimedLines merge apart, and marks recorded the
// same commits (one already recorded locally among them).
func TestMergeLinkedClaimedAsTwoCalls(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 3)
	g.Write(ctx, map[string]*trace.Record{hs[0]: record(hs[0], "a@x", "ca"), hs[1]: record(hs[1], "a@x", "cb")}, "a@x", "m")
	rd := NewReader(ctx, g.Dir)
	defer rd.Close()
	start := func() (map[string][]store.LinkedConversation, map[string]map[string]map[int]store.LineWriter, map[string]bool) {
		return map[string][]store.LinkedConversation{hs[1]: {{Link: store.Link{ConversationID: "cb", Source: "hook"}}}},
			map[string]map[string]map[int]store.LineWriter{}, map[string]bool{hs[1]: true}
	}
	wantLinked, wantWriters, wantRecorded := start()
	if err := rd.MergeLinked(ctx, hs, wantLinked); err != nil {
		t.Fatal(err)
	}
	if err := rd.MergeClaimedLines(ctx, hs, wantWriters, wantRecorded); err != nil {
		t.Fatal(err)
	}
	linked, writers, recorded := start()
	if err := rd.MergeLinkedClaimed(ctx, hs, linked, writers, recorded); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(linked, wantLinked) || len(linked[hs[0]]) != 1 {
		t.Errorf("linked %+v, want %+v", linked, wantLinked)
	}
	if !reflect.DeepEqual(writers, wantWriters) || !reflect.DeepEqual(recorded, wantRecorded) || !recorded[hs[0]] || recorded[hs[2]] {
		t.Errorf("writers %v recorded %v, want %v %v", writers, recorded, wantWriters, wantRecorded)
	}
}
