package gitai

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
)

// fixtureNotes returns the real notes git-ai wrote on its own repository
// (../shared/fixtures/git-ai/notes), by file name, or skips.
func fixtureNotes(t *testing.T) map[string][]byte {
	t.Helper()
	dir := cursortest.Shared(t, "git-ai", "notes")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	if len(out) < 12 {
		t.Fatalf("only %d notes in %s", len(out), dir)
	}
	return out
}

// TestParseRealNotes reads every real note and checks what each must say.
func TestParseRealNotes(t *testing.T) {
	notes := fixtureNotes(t)
	type want struct {
		files, entries int
		path           string
		line           int
		kind           KeyKind
		tool, model    string
		human          string
	}
	cases := map[string]want{
		"codex-session":                    {1, 1, "tests/commit_tree_update_ref.rs", 1040, KeySession, "codex", "gpt-5.6-sol", "Sasha Varlamov <sasha@sashavarlamov.com>"},
		"claude-session-plus-human":        {1, 3, "src/commands/usage.rs", 262, KeyHuman, "", "", "Lincoln de Sousa <lincoln@clarete.li>"},
		"cursor-session":                   {1, 1, "agent-support/visualstudio/src/GitAiVS/GitAiVS.csproj", 43, KeySession, "cursor", "claude-opus-4-6", "Sanjog Gururaj <sanjog@workweave.ai>"},
		"github-copilot-session":           {1, 1, "tests/cherry_pick.rs", 121, KeyLegacy, "github-copilot", "unknown", "unknown"},
		"opencode-session":                 {1, 1, ".github/workflows/codeql.yml", 70, KeyLegacy, "opencode", "openai/gpt-5.4", "Test Runner"},
		"amp-session":                      {1, 1, "src/utils.rs", 233, KeyLegacy, "amp", "claude-opus-4-6", "Aidan Cunniffe <acunniffe@gmail.com>"},
		"legacy-prompts-messages_url":      {1, 1, "src/utils.rs", 213, KeyLegacy, "claude", "claude-opus-4-6", "Aidan Cunniffe <acunniffe@gmail.com>"},
		"legacy-prompts-custom_attributes": {1, 1, "src/config.rs", 667, KeyLegacy, "claude", "claude-opus-4-6", "Aidan Cunniffe <acunniffe@gmail.com>"},
		"human-only":                       {1, 1, "Taskfile.yml", 99, KeyHuman, "", "", "Sasha Varlamov"},
		"no-attestations":                  {0, 0, "", 0, 0, "", "", ""},
		"claude-plus-codex-two-files":      {2, 3, "src/commands/git_ai_handlers.rs", 699, KeySession, "claude", "claude-opus-4-6", "Sasha Varlamov <sasha@sashavarlamov.com>"},
		"claude-plus-cursor-six-files":     {6, 9, "src/api/types.rs", 84, KeyLegacy, "claude", "claude-opus-4-5-20251101", "Sasha Varlamov <sasha@sashavarlamov.com>"},
	}
	seen := 0
	for name, b := range notes {
		label, commit, _ := strings.Cut(strings.TrimSuffix(name, ".txt"), "__")
		w, ok := cases[label]
		if !ok {
			t.Errorf("%s: a fixture this test does not know", name)
			continue
		}
		seen++
		t.Run(label, func(t *testing.T) {
			l, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if l.Meta.BaseCommitSHA != commit {
				t.Errorf("base_commit_sha %s, want %s", l.Meta.BaseCommitSHA, commit)
			}
			entries := 0
			for _, f := range l.Files {
				entries += len(f.Entries)
			}
			if len(l.Files) != w.files || entries != w.entries {
				t.Errorf("%d files, %d entries; want %d, %d", len(l.Files), entries, w.files, w.entries)
			}
			if w.path == "" {
				return
			}
			a, ok := l.Lines(w.path)[w.line]
			if !ok {
				t.Fatalf("%s:%d not attested", w.path, w.line)
			}
			if a.Kind != w.kind || a.Agent.Tool != w.tool || a.Agent.Model != w.model || a.Human != w.human {
				t.Errorf("%s:%d is %+v", w.path, w.line, a)
			}
			if a.IsAI() != (w.kind != KeyHuman) {
				t.Errorf("IsAI %v for %v", a.IsAI(), a.Kind)
			}
		})
	}
	if seen != len(cases) {
		t.Errorf("%d of %d fixtures seen", seen, len(cases))
	}
}

// TestSessionKeyMatchesRealNotes: a session's key is derived from its
// tool and conversation id, so git-convo can name git-ai's session of a
// conversation it knows.
func TestSessionKeyMatchesRealNotes(t *testing.T) {
	notes := fixtureNotes(t)
	n := 0
	for name, b := range notes {
		l, err := Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for key, s := range l.Meta.Sessions {
			n++
			if got := SessionKey(s.AgentID.Tool, s.AgentID.ID); got != key {
				t.Errorf("%s: SessionKey(%s, %s) = %s, want %s", name, s.AgentID.Tool, s.AgentID.ID, got, key)
			}
		}
		for key, h := range l.Meta.Humans {
			if got := HumanKey(h.Author); got != key {
				t.Logf("%s: HumanKey(%q) = %s, note has %s (git-ai hashes the committer string it saw)", name, h.Author, got, key)
			}
		}
	}
	if n < 5 {
		t.Fatalf("only %d sessions", n)
	}
}

// TestRoundTripRealNotes: what Encode writes of a real note parses to the
// same log, and its attestation section is the note's own, byte for byte.
func TestRoundTripRealNotes(t *testing.T) {
	for name, b := range fixtureNotes(t) {
		l, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Encode(l)
		if err != nil {
			t.Fatal(err)
		}
		l2, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: own output refused: %v\n%s", name, err, out)
		}
		if !reflect.DeepEqual(l, l2) {
			t.Errorf("%s: round trip differs:\n%+v\n%+v", name, l, l2)
		}
		att, _, _ := bytes.Cut(b, []byte("---\n"))
		att2, _, _ := bytes.Cut(out, []byte("---\n"))
		if !bytes.Equal(att, att2) {
			t.Errorf("%s: attestations\n%s\nwritten as\n%s", name, att, att2)
		}
	}
}

const meta = `{"schema_version":"authorship/3.0.0","base_commit_sha":"abc","prompts":{"0123456789abcdef":{"agent_id":{"tool":"cursor","id":"c1","model":"gpt-5"},"total_additions":1,"total_deletions":0,"accepted_lines":1,"overriden_lines":0}},"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"x","model":"MODEL"}}},"humans":{"h_aabbccddeeff00":{"author":"A <a@b>"}}}`

// TestParseRefuses: every malformed or hostile note is refused whole.
func TestParseRefuses(t *testing.T) {
	ok := "src/a.go\n  s_00112233445566::t_66554433221100 1-4,9\n---\n" + meta
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("the base case: %v", err)
	}
	cases := map[string]string{
		"no divider":          "src/a.go\n  0123456789abcdef 1\n" + meta,
		"entry before a file": "  0123456789abcdef 1\n---\n" + meta,
		"three spaces":        "a.go\n   0123456789abcdef 1\n---\n" + meta,
		"tab indent":          "a.go\n\t0123456789abcdef 1\n---\n" + meta,
		"unknown key":         "a.go\n  zz_12 1\n---\n" + meta,
		"key with no record":  "a.go\n  fedcba9876543210 1\n---\n" + meta,
		"session no record":   "a.go\n  s_99999999999999::t_00000000000000 1\n---\n" + meta,
		"human no record":     "a.go\n  h_99999999999999 1\n---\n" + meta,
		"line zero":           "a.go\n  0123456789abcdef 0\n---\n" + meta,
		"negative":            "a.go\n  0123456789abcdef -3\n---\n" + meta,
		"backwards":           "a.go\n  0123456789abcdef 9-4\n---\n" + meta,
		"huge line":           "a.go\n  0123456789abcdef 1-99999999999999999999\n---\n" + meta,
		"past MaxLine":        "a.go\n  0123456789abcdef 1-1000001\n---\n" + meta,
		"space in ranges":     "a.go\n  0123456789abcdef 1, 2\n---\n" + meta,
		"no ranges":           "a.go\n  0123456789abcdef\n---\n" + meta,
		"absolute path":       "/etc/passwd\n  0123456789abcdef 1\n---\n" + meta,
		"dotdot path":         "../../x\n  0123456789abcdef 1\n---\n" + meta,
		"inner dotdot":        "a/../../x\n  0123456789abcdef 1\n---\n" + meta,
		"windows path":        "C:\\x\n  0123456789abcdef 1\n---\n" + meta,
		"escape in path":      "a\x1b[2J.go\n  0123456789abcdef 1\n---\n" + meta,
		"unbalanced quote":    "\"a b.go\n  0123456789abcdef 1\n---\n" + meta,
		"bad JSON":            "---\n{",
		"two JSON values":     "---\n" + meta + meta,
		"old schema":          "---\n" + strings.Replace(meta, "3.0.0", "0.0.1", 1),
		"no prompts":          "---\n" + `{"schema_version":"authorship/3.0.0","base_commit_sha":"x"}`,
		"escape in model":     "---\n" + strings.Replace(meta, "MODEL", `\u001b]52;c;aGk=\u0007`, 1),
		"C1 control in model": "---\n" + strings.Replace(meta, "MODEL", "\u009b31m", 1),
		"bidi override":       "---\n" + strings.Replace(meta, "MODEL", "\u202e", 1),
		"not UTF-8":           "a\xff.go\n  0123456789abcdef 1\n---\n" + meta,
		"long model":          "---\n" + strings.Replace(meta, "MODEL", strings.Repeat("m", 2000), 1),
		"empty":               "",
		"JSON only":           meta,
		"array metadata":      "---\n[]",
		"prompts not a map":   "---\n" + `{"schema_version":"authorship/3.0.0","base_commit_sha":"x","prompts":[]}`,
		"an Agent Trace line": `{"version":"0.1.0","files":[]}`,
		"too large":           strings.Repeat("a", MaxNoteBytes+1),
		"too many entries":    manyEntries(MaxEntries + 1),
		"100,000 entries":     manyEntries(100_000),
		"too many ranges":     "a.go\n  0123456789abcdef " + strings.Repeat("1,", MaxRanges) + "1\n---\n" + meta,
		"short session key":   "a.go\n  0123456789abcdef 1\n  s_0011::t_00 2\n---\n" + meta,
	}
	for name, note := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse([]byte(note))
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrNotALog) {
				t.Errorf("error %v does not wrap ErrNotALog", err)
			}
			if strings.ContainsAny(err.Error(), "\x1b\x07\u009b\u202e") {
				t.Errorf("the error carries a raw control character: %q", err)
			}
			_ = start // time is not asserted (shared machine); the size bounds are
		})
	}
}

func manyEntries(n int) string {
	var b strings.Builder
	b.WriteString("a.go\n")
	for i := range n {
		fmt.Fprintf(&b, "  0123456789abcdef %d\n", i%MaxLine+1)
	}
	return b.String() + "---\n" + meta
}

// TestParseAccepts: the leniencies the spec and real notes need.
func TestParseAccepts(t *testing.T) {
	cases := []struct {
		name, note, path string
		lines            []int
	}{
		{"quoted path with a space", "\"src/my file.rs\"\n  0123456789abcdef 1-2\n---\n" + meta, "src/my file.rs", []int{1, 2}},
		{"CRLF", "a.go\r\n  0123456789abcdef 3\r\n---\r\n" + meta, "a.go", []int{3}},
		{"no final newline", "a.go\n  0123456789abcdef 3\n---\n" + strings.TrimSpace(meta), "a.go", []int{3}},
		{"file listed twice", "a.go\n  0123456789abcdef 3\nb.go\n  0123456789abcdef 1\na.go\n  h_aabbccddeeff00 5\n---\n" + meta, "a.go", []int{3, 5}},
		{"7-hex legacy key", "a.go\n  0123456 1\n---\n" + strings.Replace(meta, `"0123456789abcdef"`, `"0123456"`, 1), "a.go", []int{1}},
		{"unknown fields", "a.go\n  0123456789abcdef 1\n---\n" + strings.Replace(meta, `"prompts"`, `"future":{"x":[1]},"prompts"`, 1), "a.go", []int{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := Parse([]byte(c.note))
			if err != nil {
				t.Fatal(err)
			}
			got := l.Lines(c.path)
			if len(got) != len(c.lines) {
				t.Fatalf("lines %v, want %v", got, c.lines)
			}
			for _, n := range c.lines {
				if _, ok := got[n]; !ok {
					t.Errorf("line %d missing from %v", n, got)
				}
			}
		})
	}
}

// TestCheckLines: ranges past the end of the file, or a file the commit
// does not have, refuse the log.
func TestCheckLines(t *testing.T) {
	l, err := Parse([]byte("a.go\n  0123456789abcdef 1-4,9\n---\n" + meta))
	if err != nil {
		t.Fatal(err)
	}
	files := func(n int, ok bool) func(string) (int, bool) { return func(string) (int, bool) { return n, ok } }
	for _, c := range []struct {
		n, ok  int
		refuse bool
	}{{9, 1, false}, {20, 1, false}, {8, 1, true}, {9, 0, true}} {
		err := l.CheckLines(files(c.n, c.ok == 1))
		if (err != nil) != c.refuse {
			t.Errorf("%d lines, present %v: %v", c.n, c.ok == 1, err)
		}
	}
}

func TestFormatRanges(t *testing.T) {
	for _, c := range []struct {
		in   []Range
		want string
	}{
		{[]Range{{1, 4}, {9, 10}, {12, 12}}, "1-4,9-10,12"},
		{[]Range{{12, 12}, {1, 4}, {5, 5}}, "1-5,12"},
		{[]Range{{3, 8}, {4, 5}}, "3-8"},
	} {
		if got := FormatRanges(c.in); got != c.want {
			t.Errorf("%v: %s, want %s", c.in, got, c.want)
		}
		back, err := ParseRanges(c.want)
		if err != nil || FormatRanges(back) != c.want {
			t.Errorf("%s does not read back: %v %v", c.want, back, err)
		}
	}
}

// FuzzParse: no input crashes or hangs Parse, and what it accepts writes
// back to a log it accepts again, unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte("a.go\n  0123456789abcdef 1-4,9\n---\n" + meta))
	f.Add([]byte("\"a b\"\n  h_aabbccddeeff00 2\n  s_00112233445566::t_66554433221100 1\n---\n" + meta))
	f.Add([]byte("---\n{}"))
	for _, b := range fixtureNotesIfAny() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Parse(b)
		if err != nil {
			return
		}
		out, err := Encode(l)
		if err != nil {
			return // a path Encode cannot write (a quote in an unquoted path)
		}
		l2, err := Parse(out)
		if err != nil {
			t.Fatalf("own output refused: %v\n%q\n%q", err, b, out)
		}
		for _, f := range l2.Files {
			for _, e := range f.Entries {
				if _, ok := l2.Resolve(e.Key); !ok {
					t.Fatalf("unresolved key %q", e.Key)
				}
			}
		}
	})
}

// fixtureNotesIfAny is the real notes, where present (fuzz seeds).
func fixtureNotesIfAny() [][]byte {
	dir, ok := cursortest.SharedPath("git-ai", "notes")
	if !ok {
		return nil
	}
	var out [][]byte
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			out = append(out, b)
		}
	}
	return out
}
