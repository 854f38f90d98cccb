package autolink

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
)

func TestLinkCommitAndLateRelink(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := &Linker{Store: s}
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	ms := func(d time.Duration) int64 { return at.Add(d).UnixMilli() }
	repo := "/src/app/.git"
	edit := func(conv string, when time.Duration, paths ...string) {
		t.Helper()
		var files []store.FileTouch
		for _, p := range paths {
			files = append(files, store.FileTouch{RepoKey: repo, Path: p, Source: store.SourceHook})
		}
		if err := s.RecordActivity(ctx, store.Activity{ConversationID: conv, AtMs: ms(when), Files: files}); err != nil {
			t.Fatal(err)
		}
	}
	edit("near", -time.Hour, "src/a.go", "src/b.go")
	edit("other-file", -time.Minute, "README.md")
	edit("too-old", -20*24*time.Hour, "src/a.go")
	edit("after", time.Hour, "src/a.go") // started after the commit
	if err := s.UpsertCommit(ctx, store.Commit{Hash: "c1", RepoPath: "/src/app", RepoKey: repo, CommittedAt: at,
		ParentCount: 1, Files: []string{"src/a.go", "src/c.go"}}); err != nil {
		t.Fatal(err)
	}
	decisions, err := l.LinkCommit(ctx, "c1", store.LinkSourceHook)
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, d := range decisions {
		if d.Linked {
			linked[d.ConversationID] = true
		}
	}
	if len(linked) != 1 || !linked["near"] {
		t.Fatalf("linked %v, want only 'near' (decisions %+v)", linked, decisions)
	}
	got, _ := s.ConversationsForCommits(ctx, []string{"c1"})
	if len(got["c1"]) != 1 || got["c1"][0].Reason != "1 of 2 files edited in this conversation; last active 1 h before the commit" {
		t.Fatalf("links = %+v", got["c1"])
	}

	// Late information: a conversation whose hooks arrive after the commit was
	// recorded (it edited the file before the commit) is linked by a relink.
	edit("late", -10*time.Minute, "src/c.go")
	n, err := l.RelinkConversation(ctx, "late")
	if err != nil || n != 1 {
		t.Fatalf("RelinkConversation = %d, %v", n, err)
	}
	got, _ = s.ConversationsForCommits(ctx, []string{"c1"})
	if len(got["c1"]) != 2 {
		t.Fatalf("after relink: %+v", got["c1"])
	}
	if _, err := l.LinkCommit(ctx, "missing", store.LinkSourceHook); err == nil {
		t.Error("linking an unrecorded commit should fail")
	}
}
