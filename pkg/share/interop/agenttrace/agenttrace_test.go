package agenttrace

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/google/jsonschema-go/jsonschema"
)

const commit = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0"

// rec is a valid record by another tool, about commit; edit changes it.
func rec(edit func(string) string) string {
	r := `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z",` +
		`"vcs":{"type":"git","revision":"` + commit + `"},"tool":{"name":"TOOL","version":"2.4.0"},` +
		`"files":[{"path":"src/p.ts","conversations":[` +
		`{"url":"https://api.example.com/c/1","contributor":{"type":"ai","model_id":"MODEL"},"ranges":[{"start_line":3,"end_line":5},{"start_line":9,"end_line":9,"contributor":{"type":"human"}}]},` +
		`{"contributor":{"type":"human"},"ranges":[{"start_line":1,"end_line":2}]}]}]}`
	r = strings.Replace(r, "TOOL", "compass", 1)
	r = strings.Replace(r, "MODEL", "anthropic/claude-opus-4-5", 1)
	if edit != nil {
		r = edit(r)
	}
	return r
}

func replace(old, new string) func(string) string {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

// cases are records and whether each must be taken.
var cases = []struct {
	name string
	rec  string
	ok   bool
}{
	{"valid", rec(nil), true},
	{"no tool", rec(replace(`"tool":{"name":"compass","version":"2.4.0"},`, "")), true},
	{"fractional timestamp", rec(replace("14:30:00Z", "14:30:00.123+02:00")), true},
	{"missing id", rec(replace(`"id":"550e8400-e29b-41d4-a716-446655440000",`, "")), false},
	{"id not a uuid", rec(replace("550e8400-e29b", "550e8400-zzzz")), false},
	{"version not semver", rec(replace(`"0.1.0"`, `"2.0"`)), false},
	{"timestamp not a date", rec(replace("2026-01-23T14:30:00Z", "yesterday")), false},
	{"files not an array", rec(func(string) string {
		return `{"version":"0.1.0","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2026-01-23T14:30:00Z","vcs":{"type":"git","revision":"` + commit + `"},"files":{}}`
	}), false},
	{"contributor type", rec(replace(`"type":"ai"`, `"type":"robot"`)), false},
	{"start line 0", rec(replace(`"start_line":3`, `"start_line":0`)), false},
	{"line as string", rec(replace(`"start_line":3`, `"start_line":"3"`)), false},
	{"fractional line", rec(replace(`"start_line":3`, `"start_line":3.5`)), false},
	{"backwards range", rec(replace(`"end_line":5`, `"end_line":2`)), false},
	{"url not a uri", rec(replace("https://api.example.com/c/1", "not a url")), false},
	{"model_id too long", rec(replace("anthropic/claude-opus-4-5", strings.Repeat("m", 251))), false},
	{"escape in model", rec(replace("anthropic/claude-opus-4-5", `\u001b]0;pwned\u0007`)), false},
	{"escape in tool", rec(replace("compass", `\u001b[2J`)), false},
	{"escape in override model", rec(replace(`"contributor":{"type":"human"}}`, `"contributor":{"type":"ai","model_id":"\u009b2J"}}`)), false},
	{"path outside", rec(replace("src/p.ts", "../../etc/passwd")), false},
	{"absolute path", rec(replace("src/p.ts", "/etc/passwd")), false},
	{"metadata not an object", rec(replace(`"files":[`, `"metadata":[1],"files":[`)), false},
	{"vcs type", rec(replace(`"type":"git"`, `"type":"cvs"`)), false},
	{"tool name a number", rec(replace(`"name":"compass"`, `"name":7`)), false},
	{"the agent-trace CLI's ledger", `{"version":"2.0","trace_ids":["t1"],"ledger_hash":"sha256:00","stats":{"ai_lines":3},"ledger":{"files":{}}}`, false},
	{"not JSON", `{"version":`, false},
	{"array", `[1,2]`, false},
}

func TestValidate(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Validate([]byte(c.rec))
			if (err == nil) != c.ok {
				t.Fatalf("Validate: %v, want ok %v", err, c.ok)
			}
			if err != nil && strings.ContainsAny(err.Error(), "\x1b\x07\u009b") {
				t.Errorf("the error carries a raw control character: %q", err)
			}
		})
	}
}

// TestValidateAgreesWithSchema: a record the schema file refuses is refused
// here too (here is stricter: formats, forwards ranges, paths, controls).
func TestValidateAgreesWithSchema(t *testing.T) {
	path := cursortest.Shared(t, "..", "agent-trace", "trace-record.schema.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	examples := []string{"example-trace-record.json", "example-minimal-trace-record.json"}
	for _, name := range examples {
		ex, err := os.ReadFile(strings.TrimSuffix(path, "trace-record.schema.json") + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Validate(ex); err != nil {
			t.Errorf("%s: the spec's own example refused: %v", name, err)
		}
	}
	for _, c := range cases {
		var v any
		if json.Unmarshal([]byte(c.rec), &v) != nil {
			continue
		}
		schemaOK := rs.Validate(v) == nil
		_, err := Validate([]byte(c.rec))
		if !schemaOK && err == nil {
			t.Errorf("%s: the schema refuses it, Validate takes it", c.name)
		}
		if c.ok && !schemaOK {
			t.Errorf("%s: a case marked valid that the schema refuses", c.name)
		}
	}
}

func TestParse(t *testing.T) {
	valid := rec(nil)
	other := rec(replace(commit, strings.Repeat("f", 40)))
	var pretty strings.Builder
	var v any
	_ = json.Unmarshal([]byte(valid), &v)
	pb, _ := json.MarshalIndent(v, "", "  ")
	pretty.Write(pb)
	for _, c := range []struct {
		name           string
		note           string
		taken, skipped int
	}{
		{"one record", valid, 1, 0},
		{"pretty-printed", pretty.String(), 1, 0},
		{"an array", "[" + valid + "," + rec(replace("compass", "tartan")) + "]", 2, 0},
		{"one per line", valid + "\n" + rec(replace("compass", "tartan")) + "\n", 2, 0},
		{"about another commit", other, 0, 1},
		{"a bad one beside a good one", valid + "\n" + rec(replace(`"type":"ai"`, `"type":"robot"`)), 1, 1},
		{"text", "hello\nworld", 0, 2},
		{"empty", "", 0, 0},
		{"too large", strings.Repeat(" ", MaxNoteBytes+1), 0, 1},
		{"too many records", strings.Repeat(valid+"\n", MaxRecords+3), MaxRecords, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := Parse(commit, []byte(c.note))
			if len(n.Records) != c.taken || len(n.Skipped) != c.skipped {
				t.Fatalf("%d taken, %d skipped (%v); want %d, %d", len(n.Records), len(n.Skipped), n.Skipped, c.taken, c.skipped)
			}
		})
	}
}

// TestLines: each range carries the contributor that applies to it.
func TestLines(t *testing.T) {
	n := Parse(commit, []byte(rec(nil)))
	if len(n.Records) != 1 {
		t.Fatalf("%v", n.Skipped)
	}
	r := n.Records[0]
	if ToolName(r.Record) != "compass" {
		t.Errorf("tool %q", ToolName(r.Record))
	}
	want := []Lines{
		{Path: "src/p.ts", Start: 3, End: 5, URL: "https://api.example.com/c/1"},
		{Path: "src/p.ts", Start: 9, End: 9, URL: "https://api.example.com/c/1"},
		{Path: "src/p.ts", Start: 1, End: 2},
	}
	types := []string{"ai", "human", "human"}
	if len(r.Lines) != len(want) {
		t.Fatalf("%+v", r.Lines)
	}
	for i, l := range r.Lines {
		if l.Path != want[i].Path || l.Start != want[i].Start || l.End != want[i].End || l.URL != want[i].URL || l.Contributor.Type != types[i] {
			t.Errorf("%d: %+v", i, l)
		}
	}
	if r.Lines[0].Contributor.ModelID != "anthropic/claude-opus-4-5" {
		t.Errorf("model %q", r.Lines[0].Contributor.ModelID)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(commit, []byte(rec(nil)))
	f.Add(commit, []byte("["+rec(nil)+"]"))
	f.Fuzz(func(t *testing.T, c string, b []byte) {
		n := Parse(c, b)
		for _, r := range n.Records {
			for _, l := range r.Lines {
				if l.Start < 1 || l.End < l.Start || strings.HasPrefix(l.Path, "/") {
					t.Fatalf("taken: %+v", l)
				}
			}
		}
	})
}
