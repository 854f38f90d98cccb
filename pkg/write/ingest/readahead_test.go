package ingest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"github.com/git-convo/git-convo/pkg/agents/claude"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestRecordNewReadsAheadAsOneByOne: RecordNew reading a run of commits'
// diffs with one git stores and links exactly what reading each commit's
// diff alone does: agents' and people's lines, an empty commit, a rename,
// a merge and a root commit.
func TestRecordNewReadsAheadAsOneByOne(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	step := 0
	git := func(args ...string) string {
		t.Helper()
		step++
		when := at.Add(time.Duration(step) * time.Minute).Format(time.RFC3339)
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE="+when, "GIT_COMMITTER_DATE="+when)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	var stores []*store.Store
	for range 2 {
		s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: func() time.Time { return at }})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	for i := range 6 {
		file := fmt.Sprintf("f%d.py", i%3)
		agent := fmt.Sprintf("agent_%d = %d\n", i, i)
		a := source.Activity{ConversationID: fmt.Sprint("s", i%2), Event: "PostToolUse", Roots: []string{repo}, ToolEdit: true,
			Files: []string{file}, Added: map[string][]string{file: {agent}}}
		for _, s := range stores {
			w := Writer{Store: s, Now: func() time.Time { return at }, Agents: builtin.Registry()}
			if err := w.Record(ctx, claude.Source{}, a, at.Add(time.Duration(step)*time.Minute).UnixMilli()); err != nil {
				t.Fatal(err)
			}
		}
		f, _ := os.OpenFile(filepath.Join(repo, file), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		fmt.Fprintf(f, "%sperson_%d = %d\n", agent, i, i)
		f.Close()
		git("add", ".")
		git("commit", "-q", "-m", fmt.Sprint("commit ", i))
	}
	git("commit", "-q", "--allow-empty", "-m", "empty")
	git("mv", "f0.py", "g0.py")
	git("commit", "-q", "-m", "rename")
	git("checkout", "-q", "-b", "side", "HEAD~2")
	os.WriteFile(filepath.Join(repo, "side.py"), []byte("side = 1\n"), 0o600)
	git("add", ".")
	git("commit", "-q", "-m", "side")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-edit", "side")
	hashes := strings.Fields(git("rev-list", "--all"))
	var got []string
	for i, s := range stores {
		g, err := gitx.Open(ctx, repo, false)
		if err != nil {
			t.Fatal(err)
		}
		w := Writer{Store: s, Now: func() time.Time { return at.Add(time.Hour) }, Agents: builtin.Registry()}
		r := w.Recorder(g)
		r.oneByOne = i == 1
		if err := r.RecordNew(ctx, 11); err != nil {
			t.Fatal(err)
		}
		links, err := s.ConversationsForCommits(ctx, hashes)
		if err != nil {
			t.Fatal(err)
		}
		for _, lcs := range links {
			for j := range lcs {
				lcs[j].Conv, lcs[j].CreatedAt = store.Conversation{}, ""
			}
		}
		writers, recorded, err := s.CommitLineWriters(ctx, hashes)
		if err != nil {
			t.Fatal(err)
		}
		stats, err := s.CommitFileStats(ctx, hashes)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("links %v\nwriters %v\nrecorded %v\nstats %v", links, writers, recorded, len(stats)))
		if len(recorded) != len(hashes) || len(writers) == 0 {
			t.Errorf("oneByOne=%v: %d of %d commits recorded, %d with agents' lines", r.oneByOne, len(recorded), len(hashes), len(writers))
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("read ahead:\n%s\nwant, one by one:\n%s", got[0], got[1])
	}
}
