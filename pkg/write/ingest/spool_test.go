package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
)

// TestReplay: spooled events are recorded as their agent's, at the time
// they arrived; a work tree that is gone and an unreadable payload are
// dropped rather than block the spool.
func TestReplay(t *testing.T) {
	ctx := context.Background()
	repo := gitInit(t)
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := Writer{Store: s, Now: time.Now, Getenv: func(string) string { return "" }, Agents: builtin.Registry()}
	noRecorder := func(*gitx.Repo) *Recorder { t.Fatal("no commit to record"); return nil }
	for _, e := range []Spooled{
		{Event: "beforeSubmitPrompt", AtMs: 1000, Payload: []byte(`{"conversation_id":"c1","prompt":"hi","workspace_roots":["` + repo + `"]}`)},
		{Agent: "claude", AtMs: 2000, Payload: []byte(`{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"hello","cwd":"` + repo + `"}`)},
		{Agent: "claude", Payload: []byte(`not json`)},
		{Repo: filepath.Join(repo, "gone"), Commit: "HEAD"},
	} {
		if err := w.Replay(ctx, e, noRecorder); err != nil {
			t.Errorf("Replay(%+v): %v", e, err)
		}
	}
	for id, want := range map[string][2]string{"c1": {"", "hi"}, "s1": {"claude", "hello"}} {
		c, err := s.GetConversation(ctx, id)
		if err != nil || c == nil {
			t.Fatalf("%s: %v %v", id, c, err)
		}
		if c.Agent != want[0] && !(want[0] == "" && c.Agent == "cursor") || c.FirstPrompt != want[1] {
			t.Errorf("%s: agent %q prompt %q, want %q", id, c.Agent, c.FirstPrompt, want)
		}
	}
}

// LocateWrites reads each edited file once and keeps what the edits wrote;
// a file it cannot read gives no span.
func TestLocateWrites(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	if err := os.WriteFile(p, []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := source.Activity{Roots: []string{dir}, Writes: map[string][]position.Write{
		"a.go":    {{Old: "", New: "func A() {}\n"}},
		"gone.go": {{Old: "", New: "x\n"}},
	}}
	spans := LocateWrites(a)
	if len(spans) != 1 || spans[0].Path != "a.go" || fmt.Sprint(spans[0].Ranges) != "[{3 3}]" || len(spans[0].Snapshot) != 3*8 {
		t.Fatalf("%+v", spans)
	}
}
