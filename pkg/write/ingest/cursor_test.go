package ingest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestCursorSourceMatchesCapture: Cursor's source adapter yields, through
// the agent-neutral path, exactly what Cursor's own capture recorded from
// the same payload before it moved onto the seam (captureBefore), with the
// event the hook command names winning over the payload's. recorded is what
// Writer.Record, every agent's capture, stores.
func TestCursorSourceMatchesCapture(t *testing.T) {
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	file := filepath.Join(repo, "src", "a.go")
	payloads := []map[string]any{
		{"hook_event_name": "beforeSubmitPrompt", "prompt": "  add a  ", "attachments": []any{map[string]any{"type": "file", "filePath": file}}},
		{"hook_event_name": "afterFileEdit", "file_path": file, "edits": []any{map[string]any{"old_string": "a", "new_string": "line one\nline two"}}},
		{"hook_event_name": "postToolUse", "tool_name": "Write", "tool_input": map[string]any{"file_path": "src/b.go", "content": "package b\n"}},
		{"hook_event_name": "postToolUse", "tool_name": "ApplyPatch", "tool_input": map[string]any{"patch": "*** Begin Patch\n*** Update File: src/a.go\n+added\n*** Add File: src/c.go\n+new file\n*** End Patch"}},
		{"hook_event_name": "afterAgentResponse", "text": " done "},
		{"hook_event_name": "stop", "status": "completed"},
		{"hook_event_name": "afterFileEdit", "file_path": "/outside/every/repo.txt", "edits": []any{map[string]any{"new_string": "x"}}},
		{"prompt": "no event in the payload", "attachments": []any{map[string]any{"type": "file", "filePath": file}}},
	}
	var inputs [][]byte
	for _, p := range payloads {
		p["conversation_id"], p["generation_id"], p["workspace_roots"], p["model"] = "c1", "g1", []string{repo}, "gpt-5"
		b, _ := json.Marshal(p)
		inputs = append(inputs, b)
	}
	// A workspace opened on a folder inside the repository: its root is
	// kept as sent, and relative paths are relative to it.
	sub, _ := json.Marshal(map[string]any{"conversation_id": "c2", "hook_event_name": "postToolUse", "workspace_roots": []string{filepath.Join(repo, "src")},
		"tool_name": "Write", "tool_input": map[string]any{"file_path": "d.go", "content": "package src\n"}})
	inputs = append(inputs, sub)
	if path, ok := cursortest.SharedPath("hook-payloads", "examples.json"); ok {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var examples []struct {
			Stdin json.RawMessage `json:"stdin"`
		}
		if err := json.Unmarshal(data, &examples); err != nil {
			t.Fatal(err)
		}
		for _, ex := range examples {
			inputs = append(inputs, ex.Stdin)
		}
	} else {
		t.Log("shared Cursor payloads absent: built-in payloads only")
	}
	src := cursor.Source{Getenv: os.Getenv}
	for _, in := range inputs {
		p, err := cursor.ParsePayload(in)
		if err != nil {
			t.Fatal(err)
		}
		event := p.Event
		if event == "" {
			event = "beforeSubmitPrompt" // as capture --event names it
		}
		want := captureBefore(p, event, 42)
		a, err := Parse(src, in, event)
		if err != nil {
			t.Fatal(err)
		}
		got := recorded(src, a, 42)
		// Cursor's capture named no agent; the store records "" and
		// "cursor" alike (Cursor, the default).
		want.Agent = cursor.Name
		for _, sa := range []*store.Activity{&want, &got} {
			sort.Slice(sa.Files, func(i, j int) bool {
				return sa.Files[i].PathKey+sa.Files[i].Source < sa.Files[j].PathKey+sa.Files[j].Source
			})
			sort.Slice(sa.Lines, func(i, j int) bool {
				return sa.Lines[i].PathKey+sa.Lines[i].Text < sa.Lines[j].PathKey+sa.Lines[j].Text
			})
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s:\ncapture: %+v\nsource:  %+v", in, want, got)
		}
	}
}

// captureBefore is Cursor's capture as pkg/cli did it before the move
// (buildActivity), kept as the reference the source adapter must match.
func captureBefore(p *cursor.Payload, event string, atMs int64) store.Activity {
	loc := &Locator{}
	a := store.Activity{
		ConversationID: p.ConversationID,
		GenerationID:   p.GenerationID,
		Event:          event,
		AtMs:           atMs,
		Model:          p.Model,
		TranscriptPath: p.TranscriptPath,
	}
	for _, r := range p.WorkspaceRoots {
		if r = cursor.NormalizeFSPath(r); r != "" {
			a.WorkspaceRoots = append(a.WorkspaceRoots, r)
		}
	}
	base := ""
	if len(a.WorkspaceRoots) > 0 {
		base = a.WorkspaceRoots[0]
	}
	switch event {
	case "beforeSubmitPrompt":
		a.Prompt = strings.TrimSpace(p.Prompt)
		for _, at := range p.Attachments {
			if at.FilePath != "" {
				a.Files = append(a.Files, loc.Touch(at.FilePath, base, store.SourceAttachment))
			}
		}
	case "afterAgentResponse":
		a.Response = strings.TrimSpace(p.Text)
	case "stop":
		a.Status = p.Status
	}
	src := store.SourceHook
	if event == "postToolUse" {
		src = store.SourceTool
	}
	for _, f := range p.EditedFiles() {
		a.Files = append(a.Files, loc.Touch(f, base, src))
	}
	for f, texts := range p.AddedText() {
		t := loc.Touch(f, base, src) // in no repository: kept, waiting (ClaimUnplaced)
		for _, text := range texts {
			for _, line := range link.SplitLines(text) {
				a.Lines = append(a.Lines, store.EditLine{RepoKey: t.RepoKey, PathKey: t.PathKey, Hash: link.LineHash(line), Text: line})
			}
		}
	}
	return a
}
