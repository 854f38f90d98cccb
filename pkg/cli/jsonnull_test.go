package cli

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
)

// nullsIn lists the paths of every null in a JSON document (or in each
// line of a JSON Lines stream), a list's items as "[]".
func nullsIn(t *testing.T, out string) []string {
	t.Helper()
	var paths []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case nil:
			paths = append(paths, path)
		case map[string]any:
			for k, x := range v {
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		walk("", v)
	}
	sort.Strings(paths)
	return slices.Compact(paths)
}

// TestJSONListsNeverNull: a list with nothing in it is [] in every read
// command's JSON, never null (docs/json.md); the only nulls are the
// scalars the docs name (blame's writtenBy, prompt, agent, evidence of a
// line no agent wrote).
func TestJSONListsNeverNull(t *testing.T) {
	skipOnWindows(t)
	sb, repo := prRepo(t)
	blameNulls := []string{".agent", ".evidence", ".prompt", ".writtenBy"}
	for _, tt := range []struct {
		args    []string
		allowed []string
	}{
		{args: []string{"pr", "main", "--format", "json"}},
		{args: []string{"show", "--json", "HEAD", "HEAD~1", "HEAD~2", "main"}},
		{args: []string{"log", "--json"}},
		{args: []string{"blame", "--json", "x.go"}, allowed: blameNulls},
		{args: []string{"blame", "--json", "y.go"}, allowed: blameNulls},
		{args: []string{"stats", "--json", "main..HEAD"}},
		{args: []string{"conversations", "--json"}},
		{args: []string{"doctor", "--json"}},
	} {
		for _, p := range nullsIn(t, sb.convo(repo, tt.args...)) {
			if !slices.Contains(tt.allowed, p) {
				t.Errorf("%v: %s is null", tt.args, p)
			}
		}
	}
	// A clean install: no recent errors is [].
	fresh, dir := installedSandbox(t)
	for _, p := range nullsIn(t, fresh.convo(dir, "doctor", "--json")) {
		t.Errorf("doctor --json on a clean install: %s is null", p)
	}
}
