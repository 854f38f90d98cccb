package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// blameTextLine is a line of text blame: the hash, the conversation
// column, then git blame's own columns.
var blameTextLine = regexp.MustCompile(`^\^?[0-9a-f]+ (.*) \([^()]* \d{4}-\d{2}-\d{2} +\d+\)( |$)`)

// blameViewsDiffer compares, line by line, text blame's column for file
// with the column --json's answer makes (the writer's title, "(by hand)"
// for a person's line, nothing for one not known) and says where they
// differ.
func blameViewsDiffer(tm teammate, file string) []string {
	tm.t.Helper()
	text := strings.Split(strings.TrimSuffix(tm.convo(tm.dir, "blame", file), "\n"), "\n")
	js := tm.blameJSON(tm.dir, file)
	if len(text) != len(js) {
		return []string{fmt.Sprintf("%s: text blame has %d lines, --json %d", file, len(text), len(js))}
	}
	var diffs []string
	for i, l := range js {
		want := ""
		switch {
		case l.WrittenBy != nil:
			want = "conversation " + shortID(*l.WrittenBy)
			for _, c := range l.Conversations {
				if c.ID == *l.WrittenBy && c.Title != "" {
					want = c.Title
				}
			}
			want = oneLine(want, blameTitleWidth)
		case l.Attribution == attrHuman:
			want = "(by hand)"
		}
		m := blameTextLine.FindStringSubmatch(text[i])
		if m == nil {
			diffs = append(diffs, "unreadable text blame line: "+text[i])
			continue
		}
		if got := strings.TrimSpace(m[1]); got != want {
			diffs = append(diffs, file+":"+l.Text+": text "+quoteJSON(got)+", --json "+l.Attribution+" "+quoteJSON(want))
		}
	}
	return diffs
}

// TestBlameViewsAgreeAfterTeammatesAmend: A's Cursor conversation X writes
// limiter.go on a branch, shared; teammate B amends A's commit with a file
// B's own Claude Code conversation Y writes and a line B types into X's
// function, and shares. B's note names Y's lines only (the copy of A's
// record is not shared), so in A's clone and a third's the commit is not
// examined: X's lines and B's typed one are not known, and text blame must
// say so as --json does, not show Y (the commit's link) over them. Every
// clone's text blame gives each line the answer of --json.
func TestBlameViewsAgreeAfterTeammatesAmend(t *testing.T) {
	const x, y = "75555555-2222-4333-8444-555555555555", "76666666-2222-4333-8444-555555555555"
	body := "package limiter\n\nfunc Allow(client string) bool {\n\tb := bucket(client)\n\treturn b.take()\n}\n"
	other := "package limiter\n\nfunc bucket(client string) *tokens {\n\treturn buckets[client]\n}\n"
	a, bare, _ := sharerOnFeature(t)
	a.conversation(t, x, "Add rate limiting", "A token bucket.", "add rate limiting", "limiter.go", body)
	c := a.commit(a.dir, "limiter", "limiter.go")
	b, _ := squashedByTeammate(t, a, bare, c) // nothing after c: B is on A's branch
	p := b.write(b.dir, "bucket.go", other)
	for _, ev := range []map[string]any{
		{"hook_event_name": "UserPromptSubmit", "prompt": "add the buckets"},
		{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": map[string]any{"file_path": p, "content": other}},
	} {
		ev["session_id"], ev["cwd"] = y, b.dir
		payload, _ := json.Marshal(ev)
		if r := b.runEnv(b.dir, b.env, string(payload), "git", "convo", "capture", "--agent", "claude"); r.code != 0 {
			t.Fatalf("capture: %+v", r)
		}
	}
	b.write(b.dir, "limiter.go", strings.Replace(body, "\tb :=", "\tdefer trace(\"Allow\")()\n\tb :=", 1))
	b.run(b.dir, "git", "add", "bucket.go", "limiter.go")
	b.run(b.dir, "git", "commit", "-q", "--amend", "--no-edit")
	b.run(b.dir, "git", "push", "-q", "-f", "origin", "feature")
	b.convo(b.dir, "push")

	a.run(a.dir, "git", "fetch", "-q", "origin")
	a.convo(a.dir, "fetch")
	a.run(a.dir, "git", "reset", "-q", "--hard", "origin/feature")
	third := cloneAs(t, bare, "c")
	third.convo(third.dir, "fetch")
	third.run(third.dir, "git", "checkout", "-q", "-b", "feature", "origin/feature")
	for _, tm := range []teammate{a, b, third} {
		// The comparison means something: Y's lines are Y's everywhere.
		if got := whoWrote(tm, "bucket.go", x, y); got != "y y y y y" {
			t.Errorf("%s: Y's bucket.go read as %s", filepath.Base(tm.dir), got)
		}
		for _, f := range []string{"limiter.go", "bucket.go"} {
			for _, d := range blameViewsDiffer(tm, f) {
				t.Errorf("%s: %s", filepath.Base(tm.dir), d)
			}
		}
	}
}
