package ingest

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

func TestIsHex(t *testing.T) {
	for s, want := range map[string]bool{
		"abc1234": true, "abc123": false, "ABC1234": false, "abc123z": false,
		"0123456789abcdef0123456789abcdef01234567": true,
	} {
		if got := isHex(s); got != want {
			t.Errorf("isHex(%q) = %v, want %v", s, got, want)
		}
	}
}

func gitInit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStoreActivity: paths become repo-relative from the first root; lines
// of a file in no repository are kept with no repository, under its
// absolute path, to wait for a commit that claims them; a tool edit is
// marked as one.
func TestStoreActivity(t *testing.T) {
	repo := gitInit(t)
	a := source.Activity{
		ConversationID: "c1", Event: "PostToolUse", Roots: []string{repo}, ToolEdit: true,
		Prompt: "  hi  ", Files: []string{"src/a.go"}, Attachments: []string{filepath.Join(repo, "README")},
		Added: map[string][]string{"src/a.go": {"one\ntwo"}, "/outside/x.txt": {"x"}},
	}
	got := StoreActivity(a, "claude", 7)
	if got.Agent != "claude" || got.AtMs != 7 || got.Prompt != "hi" {
		t.Errorf("activity: %+v", got)
	}
	var files []string
	for _, f := range got.Files {
		files = append(files, f.Path+" "+f.Source)
	}
	want := []string{"README " + store.SourceAttachment, "src/a.go " + store.SourceTool}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("files = %q, want %q", files, want)
	}
	var lines []string
	for _, l := range got.Lines {
		lines = append(lines, l.RepoKey+"|"+l.PathKey+":"+l.Text)
	}
	sort.Strings(lines)
	key := repokey.Of(filepath.Join(repo, ".git"))
	want = []string{key + "|src/a.go:one", key + "|src/a.go:two", "|/outside/x.txt:x"}
	sort.Strings(want)
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("lines = %q, want %q", lines, want)
	}
}

func TestTouchOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.txt")
	got := Touch("x.txt", dir, store.SourceHook)
	if got.RepoKey != "" || got.Path != p || got.PathKey != p {
		t.Errorf("Touch = %+v, want an unmatched %s", got, p)
	}
}

func TestWithAbsPaths(t *testing.T) {
	a := withAbsPaths(source.Activity{
		Files: []string{"a", "/abs/b", ""}, Attachments: []string{"c"}, Added: map[string][]string{"d": {"x"}},
	}, "/root")
	if want := []string{"/root/a", "/abs/b", ""}; !reflect.DeepEqual(a.Files, want) {
		t.Errorf("files = %q", a.Files)
	}
	if a.Attachments[0] != "/root/c" || a.Added["/root/d"] == nil {
		t.Errorf("attachments %q added %v", a.Attachments, a.Added)
	}
}

// TestStoreActivityKeptContext: a replacement's new text repeats lines of
// the old text around the change; when the edit could not be located, those
// kept lines are not the agent's and give no text evidence (a person's later
// "\treturn nil" must not match them). Lines the edit really added stay, and
// a pure insertion or a whole-file write keeps every line.
func TestStoreActivityKeptContext(t *testing.T) {
	repo := gitInit(t)
	for _, tc := range []struct {
		name   string
		writes []position.Write
		want   []string
	}{
		{"replacement keeps its context", []position.Write{{Old: "\ts.mu.Unlock()\n\treturn nil\n}", New: "\ts.mu.Unlock()\n\treturn nil\n}\n\nfunc walk() {\n\tvisit(root)\n}"}},
			[]string{"func walk() {", "visit(root)"}},
		{"pure insertion", []position.Write{{New: "\treturn nil\n}"}}, []string{"return nil", "}"}},
		{"whole file", []position.Write{{Whole: true, Old: "\treturn nil\n}", New: "\treturn nil\n}"}}, []string{"return nil", "}"}},
		{"no writes: text evidence as sent", nil, []string{"return nil", "}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.writes
			added := "\treturn nil\n}"
			if len(text) > 0 {
				added = text[0].New
			}
			a := source.Activity{ConversationID: "c1", Roots: []string{repo}, Files: []string{"a.go"},
				Added: map[string][]string{"a.go": {added}}}
			if tc.writes != nil {
				a.Writes = map[string][]position.Write{"a.go": tc.writes}
			}
			var got []string
			for _, l := range StoreActivity(a, "cursor", 1).Lines {
				got = append(got, strings.TrimSpace(l.Text))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lines = %q, want %q", got, tc.want)
			}
		})
	}
}
