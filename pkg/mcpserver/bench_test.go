package mcpserver

import (
	"context"
	"fmt"
	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"github.com/git-convo/git-convo/pkg/app"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/store"
)

// benchDeps builds a repository and a store with 10,000 links to its commits.
func benchDeps(b *testing.B) (*Deps, string) {
	b.Helper()
	dir := b.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q")
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	run("add", "-A")
	run("commit", "-q", "-m", "one")
	head := run("rev-parse", "HEAD")[:40]
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(b.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	key, _ := filepath.EvalSymlinks(filepath.Join(dir, ".git"))
	now := time.Now()
	for i := range 10000 {
		hash := fmt.Sprintf("%040x", i+1)
		if i == 0 {
			hash = head
		}
		conv := fmt.Sprintf("conv-%05d", i%2000)
		if err := s.UpsertCommit(ctx, store.Commit{Hash: hash, RepoPath: dir, RepoKey: key, CommittedAt: now, ParentCount: 1,
			Files: []string{"main.go", fmt.Sprintf("f%d.go", i%300)}}); err != nil {
			b.Fatal(err)
		}
		if i < 2000 {
			s.RecordActivity(ctx, store.Activity{ConversationID: conv, AtMs: now.UnixMilli(), Prompt: "make the main faster",
				Files: []store.FileTouch{{RepoKey: key, Path: "main.go", Source: store.SourceHook}}})
		}
		if err := s.AddAutoLinks(ctx, hash, []store.Link{{ConversationID: conv, Confidence: 0.8, MatchedFiles: []string{"main.go"}}}); err != nil {
			b.Fatal(err)
		}
	}
	a := app.New(app.Config{Getenv: os.Getenv, Agents: builtin.Registry(), Version: "bench"})
	return &Deps{App: a, Store: s, Dir: dir, Getenv: os.Getenv, Agents: a.Agents(), Now: time.Now, Version: "bench"}, head
}

// BenchmarkTools times the two tools an agent calls most, with 10,000 links
// in the database (goal: 20 ms each).
func BenchmarkTools(b *testing.B) {
	d, head := benchDeps(b)
	ctx := context.Background()
	b.Run("get_commit_conversations", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := d.commitConversations(ctx, nil, CommitInput{CommitHash: head[:10]}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get_file_context", func(b *testing.B) {
		for b.Loop() {
			if _, out, err := d.fileContext(ctx, nil, FileInput{FilePath: "main.go", Keywords: []string{"faster"}}); err != nil || len(out.Conversations) == 0 {
				b.Fatal(err, out)
			}
		}
	})
}
