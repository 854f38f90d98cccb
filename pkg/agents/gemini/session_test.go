package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestReadRealSessions reads the real whole-file sessions of the shared
// fixtures (Gemini CLI, Dec 2025 to Jan 2026), with replace and write_file
// edits.
func TestReadRealSessions(t *testing.T) {
	dir := cursortest.Shared(t, "gemini", "sessions")
	for _, tc := range []struct {
		file            string
		id              string
		prompts, writes int
		model           string
		words           string // the start of the first edit's words: the text of the message of its tool call
	}{
		{"gemini-session-simple.json", "18f475c0-690f-4bc9-b84e-88a0a1e9518f", 1, 1, "", "Okay, `index.ts` content shows:"}, // one replace failed: not an edit
		{"session-2025-12-01T21-45-5b959dae.json", "5b959dae-8655-4cd1-b10f-720b8c336ea2", 3, 2, "gemini-3-pro-image-preview", ""},
		{"session-2026-01-16T11-01-file-ops-37b7abef.json", "37b7abef-713d-4522-85f0-8ff15a4e6d17", 5, 3, "gemini-3-pro", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := ReadSession(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if c.ID != tc.id || len(c.Prompts) != tc.prompts || len(c.Edits) != tc.writes || c.Created.IsZero() {
				t.Errorf("id %q, %d prompts, %d edits, created %v", c.ID, len(c.Prompts), len(c.Edits), c.Created)
			}
			if tc.model != "" && !strings.HasPrefix(c.Model, tc.model) {
				t.Errorf("model %q", c.Model)
			}
			if len(c.Edits) > 0 && (!strings.HasPrefix(c.Edits[0].Words, tc.words) || tc.words == "" && c.Edits[0].Words != "") {
				t.Errorf("first edit's words %.80q, want %q", c.Edits[0].Words, tc.words)
			}
			for _, e := range c.Edits {
				if e.Path == "" || e.At.IsZero() {
					t.Errorf("edit %+v", e)
				}
			}
		})
	}
}

// TestReadJSONLSession: the newer format, with a message rewritten by id,
// a rewind, a truncated last line and lines of unknown kinds.
func TestReadJSONLSession(t *testing.T) {
	lines := []string{
		`{"sessionId":"abcdef12-0000-4000-8000-000000000001","projectHash":"p","startTime":"2026-03-01T10:00:00Z","kind":"main"}`,
		`{"id":"u1","timestamp":"2026-03-01T10:00:01Z","type":"user","content":[{"text":"write a"}]}`,
		`{"id":"g1","timestamp":"2026-03-01T10:00:02Z","type":"gemini","content":"","toolCalls":[{"name":"write_file","args":{"file_path":"/r/a.go","content":"package a\n"},"status":"executing"}]}`,
		`{"id":"g1","timestamp":"2026-03-01T10:00:03Z","type":"gemini","content":"wrote a","model":"gemini-3-flash","toolCalls":[{"name":"write_file","args":{"file_path":"/r/a.go","content":"package a\n"},"status":"success"}]}`,
		`{"$set":{"lastUpdated":"2026-03-01T10:00:04Z"}}`,
		`{"id":"u2","timestamp":"2026-03-01T10:00:05Z","type":"user","content":"undo this"}`,
		`{"id":"g2","timestamp":"2026-03-01T10:00:06Z","type":"gemini","content":"ok"}`,
		`{"$rewindTo":"u2"}`,
		`{"future":"kind of line"}`,
		`{"id":"u3","timestamp":"2026-03-01T10:00:07Z","type":"user","content":"cut`,
	}
	p := filepath.Join(t.TempDir(), "session-2026-03-01T10-00-abcdef12.jsonl")
	os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600)
	c, err := ReadSession(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "abcdef12-0000-4000-8000-000000000001" || len(c.Prompts) != 1 || c.Prompts[0] != "write a" || len(c.Messages) != 2 ||
		len(c.Edits) != 1 || c.Edits[0].Added != "package a\n" || c.Model != "gemini-3-flash" {
		t.Errorf("%+v", c)
	}
}

// TestListByProjectHash: import finds a work tree's sessions in the folder
// named by the SHA-256 of its path, or by a .project_root file.
func TestListByProjectHash(t *testing.T) {
	dir := t.TempDir()
	write := func(project, name, id string) {
		chats := filepath.Join(dir, "tmp", project, "chats")
		os.MkdirAll(chats, 0o700)
		os.WriteFile(filepath.Join(chats, name), []byte(`{"sessionId":"`+id+`","messages":[{"id":"1","type":"user","content":"hi"}]}`), 0o600)
	}
	h := sha256.Sum256([]byte("/work/repo"))
	write(hex.EncodeToString(h[:]), "session-2025-12-06T18-25-11111111.json", "11111111-a")
	write("repo-slug", "session-2026-03-01T10-00-22222222.json", "22222222-b")
	os.WriteFile(filepath.Join(dir, "tmp", "repo-slug", ".project_root"), []byte("/work/repo\n"), 0o600)
	write("other", "session-2026-03-01T10-00-33333333.json", "33333333-c")
	src := Source{Dir: dir}
	refs, err := src.ListConversations(context.Background(), []string{"/work/repo"})
	if err != nil || len(refs) != 2 || refs[0].ID != "11111111-a" || refs[1].ID != "22222222-b" {
		t.Fatalf("%+v %v", refs, err)
	}
	if c, err := src.ReadConversation(context.Background(), "22222222-b", source.Hint{}); err != nil || c.Prompts[0] != "hi" {
		t.Errorf("%+v %v", c, err)
	}
}
