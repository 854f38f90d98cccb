package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
)

// TestPRWordsCursor: a Cursor session through its hooks, whose transcript
// has words before the Write of greet.go and none before bye.go's (a new
// prompt, then redacted thinking): pr shows greet.go's words, none for
// bye.go, and none once the transcript is gone.
func TestPRWordsCursor(t *testing.T) {
	sb, repo := installedSandbox(t)
	sb.run(repo, "git", "checkout", "-q", "-b", "feature")
	const conv = "cursor-words"
	greet, bye := "package greet\n\nfunc Hello() string { return \"hello\" }\n", "package greet\n\nfunc Bye() string { return \"bye\" }\n"
	transcript := filepath.Join(sb.home, ".cursor", "projects", "p", "agent-transcripts", conv+".jsonl")
	write := func(rel, contents string) cursortest.Tool {
		return cursortest.Tool{Name: "Write", Input: map[string]any{"path": filepath.Join(repo, rel), "contents": contents}}
	}
	if err := cursortest.WriteTranscript(transcript,
		cursortest.TranscriptLine{User: true, Text: "Add a greeting"},
		cursortest.TranscriptLine{Text: "I'll write greet.go first.\n\n[REDACTED]", Tools: []cursortest.Tool{write("greet.go", greet)}},
		cursortest.TranscriptLine{User: true, Text: "And a farewell"},
		cursortest.TranscriptLine{Text: "[REDACTED]", Tools: []cursortest.Tool{write("bye.go", bye)}},
	); err != nil {
		t.Fatal(err)
	}
	hook := func(event string, fields map[string]any) {
		fields["transcript_path"] = transcript
		sb.capture(repo, conv, event, fields)
	}
	hook("beforeSubmitPrompt", map[string]any{"prompt": "Add a greeting"})
	for rel, body := range map[string]string{"greet.go": greet, "bye.go": bye} {
		p := sb.write(repo, rel, body)
		hook("afterFileEdit", map[string]any{"file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
	}
	hook("stop", map[string]any{"status": "completed", "loop_count": 0})
	sb.commit(repo, "greetings", "greet.go", "bye.go")

	ws := prWords(t, sb, repo)
	if w := ws["greet.go"]; w.Words != "I'll write greet.go first." || w.Lines != 2 {
		t.Errorf("greet.go: %+v", w)
	}
	if w := ws["bye.go"]; w.Words != "" || w.Lines != 2 {
		t.Errorf("bye.go, only redacted text in its turn: %+v", w)
	}
	if err := os.Remove(transcript); err != nil {
		t.Fatal(err)
	}
	for path, w := range prWords(t, sb, repo) {
		if w.Words != "" {
			t.Errorf("%s without its transcript: words %q", path, w.Words)
		}
	}
}
