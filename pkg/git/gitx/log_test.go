package gitx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// logRepo has 30 commits to "f", then one adding "dir/ü ther" on a tagged
// HEAD; commit i (from 1) is dated 1700000000+60*i. One git fast-import
// builds it: 31 git commit runs would cost the test most of a second.
func logRepo(t *testing.T) (*testRepo, []string) {
	r := newTestRepo(t)
	var stream strings.Builder
	data := func(s string) { fmt.Fprintf(&stream, "data %d\n%s\n", len(s), s) }
	for i := 1; i <= 31; i++ {
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\n", i)
		for _, who := range []string{"author", "committer"} {
			fmt.Fprintf(&stream, "%s Zoë Tester <zoe@example.com> %d +0200\n", who, 1700000000+60*i)
		}
		if i <= 30 {
			data("commit " + string(rune('A'+(i-1)%26)))
		} else {
			data("other file\n\nbody line 1\n\nbody line 2")
		}
		if i > 1 {
			fmt.Fprintf(&stream, "from :%d\n", i-1)
		}
		if i <= 30 {
			stream.WriteString("M 100644 inline f\n")
			data(strings.Repeat("x", i))
		} else {
			stream.WriteString("M 100644 inline dir/ü ther\n")
			data("o")
		}
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	r.git("reset", "-q", "--hard")
	r.git("tag", "v1")
	hashes := strings.Fields(r.git("rev-list", "--reverse", "HEAD"))
	if len(hashes) != 31 {
		t.Fatalf("%d commits", len(hashes))
	}
	return r, hashes
}

func subjects(cs []Commit) []string {
	var s []string
	for _, c := range cs {
		s = append(s, c.Subject)
	}
	return s
}

func TestLogCommits(t *testing.T) {
	r, hashes := logRepo(t)
	repo := r.open()
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		args     []string
		opts     LogOptions
		subjects []string // the first few expected
		count    int
		check    func(t *testing.T, cs []Commit)
	}{
		{name: "everything", count: 31, subjects: []string{"other file", "commit D"}},
		{name: "-n and a pathspec", args: []string{"-n", "3", "--", "f"},
			count: 3, subjects: []string{"commit D", "commit C", "commit B"}},
		{name: "a path without --", args: []string{"-n3", "f"}, count: 3, subjects: []string{"commit D", "commit C", "commit B"}},
		{name: "the user's --name-only fills Files", args: []string{"-n1", "--name-only"}, count: 1, check: func(t *testing.T, cs []Commit) {
			if !reflect.DeepEqual(cs[0].Files, []string{"dir/ü ther"}) {
				t.Errorf("files %q", cs[0].Files)
			}
		}},
		{name: "abbreviations", args: []string{"-n1"}, opts: LogOptions{Abbrev: true}, count: 1, check: func(t *testing.T, cs []Commit) {
			if want := r.git("log", "-1", "--format=%h"); cs[0].Abbrev != want {
				t.Errorf("abbrev %q, want %q", cs[0].Abbrev, want)
			}
		}},
		{name: "range", args: []string{"HEAD~3..HEAD"}, count: 3, subjects: []string{"other file", "commit D", "commit C"}},
		{name: "--since", args: []string{"--since=@" + "1700001800"}, count: 2, subjects: []string{"other file", "commit D"}},
		{name: "--author matches nobody", args: []string{"--author=nobody"}, count: 0},
		{name: "unicode pathspec", args: []string{"--", "dir/ü ther"}, count: 1, subjects: []string{"other file"}},
		{name: "fields", args: []string{"-n", "2"}, count: 2, check: func(t *testing.T, cs []Commit) {
			c := cs[0]
			want := time.Unix(1700000000+60*31, 0)
			if c.Hash != hashes[30] || !reflect.DeepEqual(c.Parents, []string{hashes[29]}) || c.Author != "Zoë Tester <zoe@example.com>" ||
				!c.AuthorTime.Equal(want) || !c.CommitTime.Equal(want) || c.Body != "" || c.Refs != nil || c.Files != nil {
				t.Errorf("%+v", c)
			}
			if _, off := c.AuthorTime.Zone(); off != 7200 {
				t.Errorf("author time zone: %v", c.AuthorTime)
			}
		}},
		{name: "body", args: []string{"-n", "1"}, opts: LogOptions{Body: true}, count: 1, check: func(t *testing.T, cs []Commit) {
			if cs[0].Body != "body line 1\n\nbody line 2" {
				t.Errorf("body %q", cs[0].Body)
			}
		}},
		{name: "decorations", args: []string{"-n", "2"}, opts: LogOptions{Decorate: true}, count: 2, check: func(t *testing.T, cs []Commit) {
			if !reflect.DeepEqual(cs[0].Refs, []string{"HEAD -> main", "tag: v1"}) || cs[1].Refs != nil {
				t.Errorf("refs %q, %q", cs[0].Refs, cs[1].Refs)
			}
		}},
		{name: "files and body together", args: []string{"-n", "2"}, opts: LogOptions{Files: true, Body: true}, count: 2, check: func(t *testing.T, cs []Commit) {
			if !reflect.DeepEqual(cs[0].Files, []string{"dir/ü ther"}) || cs[0].Body != "body line 1\n\nbody line 2" ||
				!reflect.DeepEqual(cs[1].Files, []string{"f"}) {
				t.Errorf("%+v", cs)
			}
		}},
		{name: "root commit's files", args: []string{"--reverse"}, opts: LogOptions{Files: true}, count: 31, check: func(t *testing.T, cs []Commit) {
			if cs[0].Parents != nil || !reflect.DeepEqual(cs[0].Files, []string{"f"}) {
				t.Errorf("root %+v", cs[0])
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := repo.LogCommits(ctx, tc.args, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != tc.count {
				t.Fatalf("%d commits: %q", len(cs), subjects(cs))
			}
			if got := subjects(cs); len(tc.subjects) > 0 && !slices.Equal(got[:len(tc.subjects)], tc.subjects) {
				t.Errorf("subjects %q, want %q first", got, tc.subjects)
			}
			if tc.check != nil {
				tc.check(t, cs)
			}
		})
	}
}

func TestLogFilesOfMergesAndOddNames(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "a")
	r.write(`quo"te`, "q")
	r.write("tab\there", "t")
	r.commit("root")
	r.git("checkout", "-q", "-b", "side")
	r.write("side.go", "s")
	r.commit("side")
	r.git("checkout", "-q", "main")
	r.write("a.go", "a2")
	r.commit("main")
	r.at("merge", "-q", "--no-ff", "-m", "merge", "side")
	cs, err := r.open().LogCommits(context.Background(), []string{"--topo-order"}, LogOptions{Files: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range cs {
		got[c.Subject] = c.Files
	}
	want := map[string][]string{
		"merge": {"side.go"}, // against the first parent
		"main":  {"a.go"},
		"side":  {"side.go"},
		"root":  {"a.go", `quo"te`, "tab\there"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestLogAnyMessageAndPath holds commits whose messages hold the bytes an
// old framing used (0x1e), newlines and tabs, and paths that look like
// hashes or start with a newline, against git's own answers.
func TestLogAnyMessageAndPath(t *testing.T) {
	r := newTestRepo(t)
	msgs := []string{"a\x1erecord\x1e separator", "subject\n\nbody \x1e\x1f\x01 end", "two-line\nsubject"}
	names := []string{"\nnewline first", strings.Repeat("ab", 20), "/dev/null\x1e", "x\x1ey"}
	for i, m := range msgs {
		r.write(names[i], m)
		if i == len(msgs)-1 {
			r.write(names[i+1], m)
		}
		r.commit(m)
	}
	cs, err := r.open().LogCommits(context.Background(), []string{"HEAD"}, LogOptions{Files: true, Body: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != len(msgs) {
		t.Fatalf("%d commits", len(cs))
	}
	for i, c := range cs {
		h := r.git("rev-parse", fmt.Sprintf("HEAD~%d", i))
		if c.Hash != h || c.Subject != r.git("log", "-1", "--format=%s", h) || c.Body != r.git("log", "-1", "--format=%b", h) {
			t.Errorf("%d: %+v", i, c)
		}
		out, err := exec.Command("git", "-C", r.dir, "show", "-z", "--no-renames", "--name-only", "--format=%H", h).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(out), h+"\x00\n"), "\x00"), "\x00")
		if !reflect.DeepEqual(c.Files, want) {
			t.Errorf("%d: files %q, want %q", i, c.Files, want)
		}
	}
}

func TestStreamLogStops(t *testing.T) {
	r, _ := logRepo(t)
	repo := r.open()
	t.Run("callback returns false", func(t *testing.T) {
		var seen int
		err := repo.StreamLog(context.Background(), nil, LogOptions{}, func(Commit) bool { seen++; return seen < 5 })
		if err != nil || seen != 5 {
			t.Errorf("%d seen, %v", seen, err)
		}
	})
	t.Run("context cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var seen int
		err := repo.StreamLog(ctx, nil, LogOptions{}, func(Commit) bool { seen++; cancel(); return true })
		if !errors.Is(err, context.Canceled) || seen != 1 {
			t.Errorf("%d seen, %v", seen, err)
		}
	})
	t.Run("git fails", func(t *testing.T) {
		err := repo.StreamLog(context.Background(), []string{"no-such-branch"}, LogOptions{}, func(Commit) bool { return true })
		var ge *Error
		if !errors.As(err, &ge) || !strings.Contains(err.Error(), "no-such-branch") {
			t.Errorf("bad revision: %v", err)
		}
		if _, err := repo.LogCommits(context.Background(), []string{"--bogus-option"}, LogOptions{}); err == nil || !strings.Contains(err.Error(), "bogus") {
			t.Errorf("bad option: %v", err)
		}
	})
}

// TestParseLogStreams hands the parser a stream that stays open: the first
// commit must come out before the writer is done.
func TestParseLogStreams(t *testing.T) {
	pr, pw := io.Pipe()
	h := strings.Repeat("ab", 20)
	rec := "/" + h + "\x00\x00N\x00n@x\x002024-01-02T03:04:05+01:00\x002024-01-02T03:04:05+01:00\x00subject\x00\x00\x00\x00\x00\x00\x00" // 13 fields
	first := make(chan Commit, 1)
	done := make(chan error, 1)
	go func() {
		done <- parseLog(pr, true, 0, func(c Commit) bool { first <- c; return false })
	}()
	// The second record's separator completes the first; the stream stays open.
	if _, err := pw.Write([]byte(rec + "/")); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-first:
		if c.Hash != h || c.Subject != "subject" || c.Author != "N <n@x>" {
			t.Errorf("%+v", c)
		}
	case err := <-done:
		// The callback fills first before the parser returns, so both can
		// be ready: only an end with nothing delivered is a failure.
		select {
		case <-first:
			done <- err
		default:
			t.Fatalf("parser ended before delivering: %v", err)
		}
	case <-time.After(10 * time.Second): // a guard against hanging, not a timing assertion
		t.Fatal("no commit while the stream is open: the parser waits for the end")
	}
	if err := <-done; !errors.Is(err, errStop) {
		t.Errorf("stop: %v", err)
	}
	pw.Close()
}

func TestParseLogMalformed(t *testing.T) {
	h := strings.Repeat("ab", 20)
	for _, in := range []string{
		"/not a hash\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		"/" + h + "\x00too few fields\x00",
		"/" + h + "\x00too few fields",
	} {
		if err := parseLog(strings.NewReader(in), true, 0, func(Commit) bool { return true }); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	if err := parseLog(strings.NewReader(""), true, 0, func(Commit) bool { t.Error("a commit from nothing"); return true }); err != nil {
		t.Error(err)
	}
}

// TestStreamShow reads git show's own choice of commits: an annotated tag's
// header before its commit is skipped, a range is walked, and a blob is an
// error that says what it is.
func TestStreamShow(t *testing.T) {
	r, hashes := logRepo(t)
	r.at("tag", "-a", "-m", "a tag's\nmessage\n/with a slash line", "v2", hashes[3])
	repo := r.open()
	ctx := context.Background()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{hashes[30]}},
		{[]string{"v2", "HEAD~1"}, []string{hashes[3], hashes[29]}},
		{[]string{"HEAD~1", "v2"}, []string{hashes[29], hashes[3]}},
		{[]string{"HEAD~2..HEAD"}, []string{hashes[30], hashes[29]}},
		{[]string{"-1"}, []string{hashes[30]}},
		{[]string{hashes[3], "v2"}, []string{hashes[3]}}, // the tag's commit was shown already
	} {
		var got []string
		err := repo.StreamShow(ctx, tc.args, LogOptions{Body: true}, func(c Commit) bool { got = append(got, c.Hash); return true })
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q %v, want %q", tc.args, got, err, tc.want)
		}
	}
	err := repo.StreamShow(ctx, []string{"HEAD:f"}, LogOptions{}, func(Commit) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "not a commit") {
		t.Errorf("a blob: %v", err)
	}
}

// FuzzParseLog: whatever git prints, the log parser does not panic and every
// commit it hands out has a full hash.
func FuzzParseLog(f *testing.F) {
	h := strings.Repeat("ab", 20)
	f.Add("/"+h+"\x00\x00N\x00n@x\x00\x00\x00s\x00\x00\x00b\x00\nf\x00g\x00", true)
	f.Add("tag v1\nTagger: x\n\nmsg\n/"+h+"\x00\x00N\x00n@x\x00\x00\x00s\x00\x00\x00\x00\ntag v2\n", false)
	f.Fuzz(func(t *testing.T, in string, paths bool) {
		_ = parseLog(strings.NewReader(in), paths, 0, func(c Commit) bool {
			if !IsFullHash(c.Hash) {
				t.Fatalf("%+v", c)
			}
			return true
		})
	})
}

// TestHostileLogNotesBounded (issue 28, item 9): git log's %N brings a
// commit's notes inline, and a 100 MB note was held whole by the parser.
// Notes longer than the bound are read past, chunk by chunk, and left
// out (NotesOver); the fields after them, and the next commit, parse as
// before.
func TestHostileLogNotesBounded(t *testing.T) {
	const limit = 100 << 10 // over the parser's 64 KB chunks
	h := strings.Repeat("ab", 20)
	record := func(notes io.Reader) io.Reader {
		head := "/" + h + "\x00\x00N\x00n@x\x002024-01-02T03:04:05+01:00\x002024-01-02T03:04:05+01:00\x00subject\x00\x00\x00"
		return io.MultiReader(strings.NewReader(head), notes, strings.NewReader("\x00>\x00refs/heads/x\x00the body\x00"))
	}
	for _, tc := range []struct {
		size int
		over bool
	}{{0, false}, {1, false}, {limit - 1, false}, {limit, false}, {limit + 1, true}, {3 * limit, true}} {
		for _, paths := range []bool{false, true} {
			var got []Commit
			in := io.MultiReader(record(&repeatReader{'n', tc.size}), record(strings.NewReader("next")))
			err := parseLog(in, paths, limit, func(c Commit) bool { got = append(got, c); return true })
			if err != nil || len(got) != 2 {
				t.Fatalf("notes of %d, paths %v: %d commits, %v", tc.size, paths, len(got), err)
			}
			c := got[0]
			wantNotes := tc.size
			if tc.over {
				wantNotes = 0
			}
			if c.NotesOver != tc.over || len(c.Notes) != wantNotes || c.Mark != ">" || c.Source != "refs/heads/x" || c.Body != "the body" {
				t.Errorf("notes of %d, paths %v: over %v, %d bytes of notes, mark %q, source %q, body %q", tc.size, paths, c.NotesOver, len(c.Notes), c.Mark, c.Source, c.Body)
			}
			if got[1].NotesOver || got[1].Notes != "next" {
				t.Errorf("notes of %d, paths %v: the next commit's notes %q, over %v", tc.size, paths, got[1].Notes, got[1].NotesOver)
			}
		}
	}
	// 64 MiB of notes: the control without a bound holds them, the bound
	// allocates a fraction of them.
	const huge = 64 << 20
	allocated := func(max int) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := parseLog(record(&repeatReader{'n', huge}), true, max, func(Commit) bool { return true })
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	if n := allocated(0); n < huge {
		t.Fatalf("with no bound, %d bytes allocated for notes of %d: the measure measures nothing", n, huge)
	}
	if n := allocated(limit); n > 4*limit {
		t.Errorf("%d bytes allocated for notes of %d with a bound of %d", n, huge, limit)
	}
}
