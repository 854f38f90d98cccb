package trailers

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name string
		msg  string
		want []Agent
	}{
		{"aider with its model", "feat: add x\n\nCo-authored-by: aider (openrouter/openai/gpt-4o-mini) <aider@aider.chat>\n",
			[]Agent{{Tool: "aider", Name: "aider (openrouter/openai/gpt-4o-mini)", Model: "openrouter/openai/gpt-4o-mini", Trailer: "Co-authored-by"}}},
		{"Claude Code", "refactor(explain): move\n\nReorder.\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>",
			[]Agent{{Tool: "claude", Name: "Claude Opus 4.5", Model: "Claude Opus 4.5", Trailer: "Co-Authored-By"}}},
		{"Claude alone", "x\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n",
			[]Agent{{Tool: "claude", Name: "Claude", Trailer: "Co-Authored-By"}}},
		{"Cursor's agent", "x\n\nCo-authored-by: Cursor Agent <cursoragent@cursor.com>\n",
			[]Agent{{Tool: "cursor", Name: "Cursor Agent", Trailer: "Co-authored-by"}}},
		{"Agent Note", "x\n\nAgentnote-Session: 0cf3db51-1c73-43bb-8d05-dc0273951aaa\n",
			[]Agent{{Tool: "agentnote", Name: "Agent Note", Session: "0cf3db51-1c73-43bb-8d05-dc0273951aaa", Trailer: "Agentnote-Session"}}},
		{"Entire", "x\n\nbody\n\nEntire-Checkpoint: a1b2c3d4e5f6\nSigned-off-by: A <a@b.c>\n",
			[]Agent{{Tool: "entire", Name: "Entire", Session: "a1b2c3d4e5f6", Trailer: "Entire-Checkpoint"}}},
		{"two agents, CRLF", "x\r\n\r\nCo-Authored-By: Claude <noreply@anthropic.com>\r\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>\r\n",
			[]Agent{{Tool: "claude", Name: "Claude", Trailer: "Co-Authored-By"}, {Tool: "aider", Name: "aider (gpt-4o)", Model: "gpt-4o", Trailer: "Co-authored-by"}}},
		{"a person co-author", "x\n\nCo-authored-by: Claudette Smith <claudette@example.com>\nCo-authored-by: Jane <jane@example.com>\n", nil},
		{"a person named like a tool", "x\n\nCo-authored-by: Clauderson <c@example.com>\n", nil},
		{"not in the last paragraph", "x\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\nthen prose\n", nil},
		{"subject only", "Co-Authored-By: Claude <noreply@anthropic.com>", nil},
		{"escape in the value", "x\n\nAgentnote-Session: a\x1b]52;c;x\x07\n", nil},
		{"empty value", "x\n\nEntire-Checkpoint:\n", nil},
		{"repeated", "x\n\nEntire-Checkpoint: a\nEntire-Checkpoint: a\n",
			[]Agent{{Tool: "entire", Name: "Entire", Session: "a", Trailer: "Entire-Checkpoint"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Parse(c.msg); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseBounded(t *testing.T) {
	msg := "x\n\n" + strings.Repeat("Co-authored-by: a <b@c>\n", 100000) + "Co-Authored-By: Claude <noreply@anthropic.com>\n"
	got := Parse(msg)
	if len(got) != 1 || got[0].Tool != "claude" {
		t.Errorf("%+v", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("x\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>\n")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, a := range Parse(msg) {
			if a.Tool == "" || !plain(a.Name+a.Model+a.Session) {
				t.Fatalf("%+v", a)
			}
		}
	})
}
