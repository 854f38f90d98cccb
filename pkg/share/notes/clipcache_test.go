package notes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// countingCache is a real links.sqlite that counts what blame keeps.
type countingCache struct {
	*store.Store
	puts int
}

func (c *countingCache) PutAddedLines(ctx context.Context, settings string, lines map[string]string, wait time.Duration) error {
	c.puts += len(lines)
	return c.Store.PutAddedLines(ctx, settings, lines, wait)
}

// clipRepo is a repository of four commits editing files whose names git
// quotes or that are pathspec magic, inserting lines between repeated
// ones (where diff algorithms and heuristics differ), with a note on each
// commit claiming every line of every file (the clip keeps what the
// commit added).
func clipRepo(t *testing.T, paths []string) (Git, []string) {
	t.Helper()
	ctx := context.Background()
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	git(t, g, "", "init", "-q")
	var s strings.Builder
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i, 1700000000+i)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		for k, p := range paths {
			var body strings.Builder
			for j := 1; j <= 6; j++ {
				fmt.Fprintf(&body, "func f%d() {\n", j)
				for n := 1; n <= i && (j+k)%3 != 0; n++ {
					fmt.Fprintf(&body, "\tstep(%d)\n", n*j)
				}
				body.WriteString("}\n\n")
			}
			fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", quoteFast(p), body.Len(), body.String())
		}
	}
	git(t, g, s.String(), "fast-import", "--quiet")
	hashes := strings.Fields(git(t, g, "", "rev-list", "--reverse", "main"))
	recs := map[string]*trace.Record{}
	for i, h := range hashes {
		r := trace.Record{Version: "0.1.0", ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), VCS: &trace.VCS{Type: "git", Revision: h}}
		for _, p := range paths {
			r.Files = append(r.Files, trace.File{Path: p, Conversations: []trace.Conversation{{
				URL: trace.ConversationURL(fmt.Sprintf("conv-%d", i)), Contributor: &trace.Contributor{Type: "ai"},
				Ranges: []trace.Range{{StartLine: 1, EndLine: 100}}}}})
		}
		recs[h] = &r
	}
	if _, err := g.Write(ctx, recs, "clone-aaaa", "m"); err != nil {
		t.Fatal(err)
	}
	return g, hashes
}

// quoteFast is p as fast-import takes a path: C-quoted when it must be.
func quoteFast(p string) string {
	if !strings.ContainsAny(p, "\"\\\t ") {
		return p
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`).Replace(p) + `"`
}

// Blame's lines read with the diffs kept in links.sqlite are those read
// with every commit diffed: when the cache is empty, when it holds every
// commit (and nothing is diffed), and after each thing that changes what
// git's diff says (the diff algorithm, a file's attributes, a commit's
// parent replaced), for plain names and for those git quotes.
func TestAddedCacheAnswersAsDiffs(t *testing.T) {
	ctx := context.Background()
	paths := []string{"a.go", "w*[x].go", "sub/b.go", "sp ace.go", `quo"te.go`, "back\\slash.go", "ünï.go", "tab\there.go"}
	g, hashes := clipRepo(t, paths)
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "links.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := &countingCache{Store: s}
	dir := g.Dir
	read := func(cache AddedCache, names []string) (map[string]map[string]map[int]store.LineWriter, map[string]bool) {
		t.Helper()
		rd := NewReader(ctx, dir)
		defer rd.Close()
		rd.Keep()
		if cache != nil {
			rd.UseAddedCache(cache)
		}
		w, rec := map[string]map[string]map[int]store.LineWriter{}, map[string]bool{}
		if err := rd.MergeLineWritersIn(ctx, hashes, names, w, rec); err != nil {
			t.Fatal(err)
		}
		return w, rec
	}
	same := func(step string, names []string, wantPuts bool) {
		t.Helper()
		want, wantRec := read(nil, names)
		c.puts = 0
		got, rec := read(c, names)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(rec, wantRec) {
			t.Errorf("%s %q: with the cache\n%v\nwith diffs\n%v", step, names, got, want)
		}
		if (c.puts > 0) != wantPuts {
			t.Errorf("%s %q: %d lines kept, want some: %v", step, names, c.puts, wantPuts)
		}
	}
	plain := []string{"a.go", "w*[x].go", "sub/b.go"}
	all := 0
	for _, p := range plain {
		w, _ := read(nil, []string{p})
		for _, h := range hashes {
			all += len(w[h][p])
		}
	}
	if all == 0 {
		t.Fatal("no line survives the clip: the test proves nothing")
	}
	same("empty cache", plain, true)
	same("every commit kept", plain, false)
	same("one of them", plain[1:2], false)
	same("names git quotes (diffed each time)", paths[3:], false)
	same("all names", paths, false)
	git(t, g, "", "config", "diff.algorithm", "patience")
	same("another diff algorithm", plain, true)
	same("then kept", plain, false)
	git(t, g, "", "config", "diff.indentHeuristic", "false")
	same("no indent heuristic", plain, true)
	if err := os.WriteFile(filepath.Join(g.Dir, ".gitattributes"), []byte("a.go -diff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	same("a.go binary", plain[:1], true)
	same("then kept", plain[:1], false)
	git(t, g, "", "replace", "--graft", hashes[2]) // the third commit made a root: all its lines added
	same("a commit's parent replaced", plain[1:], true)
	same("then kept", plain[1:], false)
	// From a subdirectory, the attributes are still the blamed file's.
	dir = filepath.Join(g.Dir, "sub")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	same("from a subdirectory", plain[1:], false)
	if err := os.WriteFile(filepath.Join(g.Dir, ".gitattributes"), []byte("a.go -diff\nsub/b.go -diff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	same("sub/b.go binary, from a subdirectory", plain[2:], true)
	same("then kept", plain[2:], false)
}

// Kept lines read back as git printed them; what encodeLines cannot have
// written is refused (the commit is diffed instead).
func TestEncodeLines(t *testing.T) {
	lines := func(ns ...int) []gitx.AddedLine {
		var out []gitx.AddedLine
		for _, n := range ns {
			out = append(out, gitx.AddedLine{Line: n})
		}
		return out
	}
	for _, tt := range []struct {
		in   []gitx.AddedLine
		want string
	}{
		{nil, ""},
		{lines(7), "7"},
		{lines(3, 4, 5, 9), "3-5,9"},
		{lines(1, 3, 4, 10, 11, 12), "1,3-4,10-12"},
	} {
		got := encodeLines(tt.in)
		if got != tt.want {
			t.Errorf("encodeLines(%v) = %q, want %q", tt.in, got, tt.want)
		}
		back, ok := decodeLines(got)
		if !ok || !reflect.DeepEqual(back, tt.in) {
			t.Errorf("decodeLines(%q) = %v, %v", got, back, ok)
		}
	}
	for _, bad := range []string{"x", "0", "-3", "5-3", "5-5", "1,,2", "1-99999999999", "3-", ","} {
		if _, ok := decodeLines(bad); ok {
			t.Errorf("decodeLines(%q) taken", bad)
		}
	}
}

// A path is kept only when --raw -z and -p name it alike.
func TestPlainPath(t *testing.T) {
	for p, want := range map[string]bool{
		"a.go": true, "sub/b.go": true, "w*[x].go": true, "": false, "sp ace.go": false, `quo"te.go`: false,
		`back\slash.go`: false, "ünï.go": false, "tab\there.go": false, "./a.go": false, "a//b.go": false, "new\nline": false,
	} {
		if got := plainPath(p); got != want {
			t.Errorf("plainPath(%q) = %v", p, got)
		}
	}
}

// TestRawBlobsOddBytes: git log --raw -z is read by NUL alone, so a file
// whose name holds 0x01 (what the commit lines open with) keeps its own
// blobs, and the file named by its first part keeps its own.
func TestRawBlobsOddBytes(t *testing.T) {
	paths := []string{"a", "a\x01b", "c.go"}
	g, hashes := clipRepo(t, paths)
	raw, ok := g.rawBlobs(context.Background(), hashes, paths)
	if !ok {
		t.Fatal("rawBlobs: git's output not read")
	}
	for _, h := range hashes {
		es := raw[h]
		if len(es) != len(paths) {
			t.Fatalf("%s: %d files, want %d: %q", h, len(es), len(paths), es)
		}
		for _, e := range es {
			want := strings.TrimSpace(git(t, g, "", "rev-parse", h+":"+e.path))
			if !strings.Contains(e.blobs, want) {
				t.Errorf("%s %q: blobs %q, not its own %s", h, e.path, e.blobs, want)
			}
		}
	}
}
