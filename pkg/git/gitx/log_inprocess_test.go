package gitx

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// dagCommit is one commit of a history built for a walk test: its parents
// (indexes of earlier commits) and its committer date.
type dagCommit struct {
	parents []int
	date    int64
}

// dagMessages are the messages dag commits take in turn: every way git's
// %s and %b read a message (blank lines first, a subject over two lines,
// trailing white space, CRs, tabs, no body, an empty message).
var dagMessages = []string{
	"plain subject",
	"\n\n  \nafter blank lines\n\nbody\n",
	"a subject\nover two lines  \n\nand a body\n\n\nof two paragraphs\n\n",
	"tabs\tand CR\r\n\r\nbody with CR\r\n",
	"trailing spaces   \t\n   \n\n",
	"",
	"ünïcödé subject\n\nTrailer-Key: value\nCo-authored-by: aider (gpt) <a@b>\n",
	"x",
}

// dagRepo builds the history of commits with one git fast-import (each on
// its own ref, so a commit without parents is a root) and points main at
// the last. Authors vary too: a name with trailing spaces, zones either
// side of UTC, every fifth commit's the committer's own ident.
func dagRepo(t testing.TB, commits []dagCommit) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	var b strings.Builder
	authors := []string{"Zoë Tester <zoe@example.com>", "Ann  <ann@example.com>", "<nobody@example.com>", "B. Baker <b@x>"}
	zones := []string{"+0000", "+0200", "-0730", "+1400"}
	for i, c := range commits {
		msg := dagMessages[i%len(dagMessages)]
		fmt.Fprintf(&b, "commit refs/dag/c%d\nmark :%d\n", i, i+1)
		committer := fmt.Sprintf("C <c@example.com> %d %s", c.date, zones[i%len(zones)])
		if i%5 == 4 { // the author the committer, to the second and the zone
			fmt.Fprintf(&b, "author %s\n", committer)
		} else {
			fmt.Fprintf(&b, "author %s %d %s\n", authors[i%len(authors)], c.date+int64(i%7), zones[(i/3)%len(zones)])
		}
		fmt.Fprintf(&b, "committer %s\n", committer)
		fmt.Fprintf(&b, "data %d\n%s\n", len(msg), msg)
		for k, p := range c.parents {
			if k == 0 {
				fmt.Fprintf(&b, "from :%d\n", p+1)
			} else {
				fmt.Fprintf(&b, "merge :%d\n", p+1)
			}
		}
		fmt.Fprintf(&b, "M 644 inline f%d\ndata 2\n%d\n", i%5, i%10)
	}
	fmt.Fprintf(&b, "reset refs/heads/main\nfrom :%d\n\n", len(commits))
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	return r
}

// localOf is the Local a command run in r's work tree uses.
func localOf(r *testRepo) *Local {
	getenv := os.Getenv
	return NewLocal(r.dir, getenv, func() (*Settings, bool) { return LoadSettingsInProcess(r.dir, getenv) })
}

// walkLocal runs the in-process walk alone: ok false where it declined,
// done false where it would hand the rest to git.
func walkLocal(t testing.TB, r *testRepo, args []string, opts LogOptions) (out []Commit, done, ok bool) {
	t.Helper()
	var maps odb.Maps
	w, start, limit, ok := localOf(r).plan(args, opts, &maps)
	if !ok {
		return nil, false, false
	}
	defer w.st.Close()
	_, done, err := w.walk(context.Background(), start, limit, func(c Commit) bool {
		out = append(out, c)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, done, true
}

// sameLog compares what the walk gave with what git log printed, field by
// field as StreamLog reads them.
func sameLog(t testing.TB, what string, got, want []Commit) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d commits in process, git %d:\n%v\n%v", what, len(got), len(want), hashesOf(got), hashesOf(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Hash != w.Hash {
			t.Fatalf("%s: commit %d is %s in process, %s from git\n%v\n%v", what, i, g.Hash, w.Hash, hashesOf(got), hashesOf(want))
		}
		same := fmt.Sprint(g.Parents) == fmt.Sprint(w.Parents) && g.Author == w.Author && g.AuthorName == w.AuthorName &&
			g.AuthorEmail == w.AuthorEmail && g.Subject == w.Subject && g.Body == w.Body && g.Abbrev == w.Abbrev &&
			g.AuthorTime.Format(time.RFC3339) == w.AuthorTime.Format(time.RFC3339) && g.AuthorTime.Equal(w.AuthorTime) &&
			g.CommitTime.Format(time.RFC3339) == w.CommitTime.Format(time.RFC3339) && g.CommitTime.Equal(w.CommitTime) &&
			g.Notes == "" && g.Refs == nil && g.Files == nil
		if !same {
			t.Fatalf("%s: commit %s differs:\nin process %#v\ngit        %#v", what, w.Hash, g, w)
		}
	}
}

func hashesOf(cs []Commit) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Hash[:7])
	}
	return out
}

// checkWalk holds the in-process walk to git log for each argument form,
// with and without bodies and abbreviations, and StreamLog with Local to
// the same answer.
func checkWalk(t testing.TB, r *testRepo, what string) {
	t.Helper()
	ctx := context.Background()
	repo := Here(r.dir)
	for _, args := range [][]string{nil, {"-n", "3"}, {"-5"}, {"--max-count=1"}, {"--max-count", "0"}, {"-n7"}, {"HEAD"}, {"main"}, {"main~1"}, {"-n", "4", "HEAD^2"}} {
		for _, opts := range []LogOptions{{Body: true, Abbrev: true}, {}} {
			want, gitErr := repo.LogCommits(ctx, args, opts)
			got, done, ok := walkLocal(t, r, args, opts)
			name := fmt.Sprintf("%s: log %q %+v", what, args, opts)
			if gitErr != nil {
				// HEAD^2 of a commit with one parent: git's to say.
				if ok {
					t.Fatalf("%s: git failed (%v), the walk did not decline", name, gitErr)
				}
				continue
			}
			if !ok || !done {
				t.Fatalf("%s: the walk declined (ok %v, done %v)", name, ok, done)
			}
			sameLog(t, name, got, want)
			opts.Local = localOf(r)
			through, err := repo.LogCommits(ctx, args, opts)
			if err != nil {
				t.Fatal(err)
			}
			sameLog(t, name+" through StreamLog", through, want)
		}
	}
}

// Walk order and fields match git log's on the shapes that decide a walk:
// merges, equal dates, clock skew, roots, octopuses; with a commit-graph
// (one file, or a split chain with commits newer than it) and without.
func TestLogInProcessMatchesGit(t *testing.T) {
	linear := func(n int, date func(i int) int64) []dagCommit {
		var cs []dagCommit
		for i := range n {
			c := dagCommit{date: date(i)}
			if i > 0 {
				c.parents = []int{i - 1}
			}
			cs = append(cs, c)
		}
		return cs
	}
	cases := []struct {
		name    string
		commits []dagCommit
	}{
		{"linear", linear(12, func(i int) int64 { return 1700000000 + int64(60*i) })},
		{"equal dates everywhere", []dagCommit{
			{nil, 1700000000}, {[]int{0}, 1700000000}, {[]int{0}, 1700000000}, {[]int{1}, 1700000000},
			{[]int{2}, 1700000000}, {[]int{3, 4}, 1700000000}, {[]int{5}, 1700000000}, {[]int{2}, 1700000000},
			{[]int{6, 7}, 1700000000},
		}},
		{"clock skew: parents newer than children", []dagCommit{
			{nil, 1700009000}, {[]int{0}, 1700000000}, {[]int{0}, 1700008000}, {[]int{1}, 1700007000},
			{[]int{2}, 1700000500}, {[]int{3, 4}, 1700000100}, {[]int{5}, 1700000200}, {[]int{6, 1}, 1700000000},
		}},
		{"roots: unrelated histories merged", []dagCommit{
			{nil, 1700000000}, {[]int{0}, 1700000100}, {nil, 1700000050}, {[]int{2}, 1700000150},
			{nil, 1700000200}, {[]int{1, 3}, 1700000300}, {[]int{5, 4}, 1700000300}, {[]int{6}, 1700000250},
		}},
		{"octopus merges and a parent named twice over paths", []dagCommit{
			{nil, 1700000000}, {[]int{0}, 1700000100}, {[]int{0}, 1700000100}, {[]int{0}, 1700000090},
			{[]int{1, 2, 3}, 1700000200}, {[]int{4}, 1700000100}, {[]int{4}, 1700000300}, {[]int{5, 6, 1, 2}, 1700000400},
			{[]int{7}, 1700000400},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := dagRepo(t, tc.commits)
			checkWalk(t, r, "no graph, loose objects")
			r.git("repack", "-adq")
			checkWalk(t, r, "no graph, packed")
			r.git("commit-graph", "write", "--reachable")
			checkWalk(t, r, "commit-graph")
			r.git("config", "core.commitGraph", "false")
			checkWalk(t, r, "commit-graph turned off")
			r.git("config", "--unset", "core.commitGraph")
			// Commits newer than a split graph's layers: read from objects.
			r.git("commit-graph", "write", "--reachable", "--split")
			r.commit("newer than the graph")
			merge := gitIn(t, r.dir, []string{"GIT_COMMITTER_DATE=1700000050 +0000"}, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-p", "refs/dag/c1", "-m", "a merge")
			r.git("update-ref", "refs/heads/main", merge)
			checkWalk(t, r, "split graph, newer commits")
		})
	}
}

// The same walk on a longer history: 600 commits, merges every 50th,
// octopuses every 97th, dates a minute apart.
func TestLogInProcessLongHistory(t *testing.T) {
	r := newTestRepo(t)
	r.fastImport(600)
	r.git("repack", "-adq")
	checkWalk(t, r, "packed")
	r.git("commit-graph", "write", "--reachable")
	checkWalk(t, r, "graph")
}

// A commit the walk does not read as git does, met mid-walk, hands the rest
// to git log --skip: the log is git's all the same, and the commits before
// it came from the walk. With a commit-graph the walk reads the odd commit
// only to show it: one commit later.
func TestLogInProcessHandsOverMidWalk(t *testing.T) {
	ctx := context.Background()
	for _, odd := range []struct{ name, header string }{
		{"another encoding", "encoding ISO-8859-1\n"},
		{"a second author", "author X <x@y> 1700000000 +0000\n"},
		{"an odd zone", ""},
	} {
		t.Run(odd.name, func(t *testing.T) {
			r := dagRepo(t, []dagCommit{{nil, 1700000000}, {[]int{0}, 1700000100}, {[]int{1}, 1700000200}})
			base := r.git("rev-parse", "main")
			tree := r.git("rev-parse", "main^{tree}")
			zone := "+0100"
			if odd.header == "" {
				zone = "+0160" // minutes past 59: git prints it its own way
			}
			bad := r.rawCommit("tree " + tree + "\nparent " + base + "\nauthor A <a@b> 1700000300 " + zone +
				"\ncommitter C <c@d> 1700000300 +0000\n" + odd.header + "\nodd caf\xe9\n")
			r.git("update-ref", "refs/heads/main", bad)
			r.commit("after the odd one")
			r.commit("and another")
			opts := LogOptions{Body: true, Abbrev: true}
			got, done, ok := walkLocal(t, r, nil, opts)
			// Its child reads its parents before it is shown: where the
			// header is odd the walk stops there, after one; else at the
			// odd commit, after two.
			if !ok || done || len(got) == 0 || len(got) > 2 || got[len(got)-1].Hash == bad {
				t.Fatalf("walk: ok %v, done %v, %d commits; want it to stop before the odd commit", ok, done, len(got))
			}
			for _, args := range [][]string{nil, {"-n", "4"}, {"-3"}, {"-2"}} {
				opts.Local = localOf(r)
				through, err := Here(r.dir).LogCommits(ctx, args, opts)
				if err != nil {
					t.Fatal(err)
				}
				opts.Local = nil
				want, _ := Here(r.dir).LogCommits(ctx, args, opts)
				sameLog(t, fmt.Sprintf("log %q", args), through, want)
			}
		})
	}
}

// Everything the walk does not read as git would is left to git before
// anything is read: options, paths, ranges, notes and decorations asked,
// mailmaps, encodings, replacements, grafts, a revision that is also a
// file, an ambiguous HEAD.
func TestLogInProcessDeclines(t *testing.T) {
	r := dagRepo(t, []dagCommit{{nil, 1700000000}, {[]int{0}, 1700000100}})
	plain := LogOptions{Body: true}
	if _, _, ok := walkLocal(t, r, nil, plain); !ok {
		t.Fatal("a plain log declined")
	}
	for _, args := range [][]string{
		{"--"}, {"f1"}, {"--", "f1"}, {"main..HEAD"}, {"^main"}, {"HEAD", "main"}, {"-n", "-1"}, {"-n"}, {"-n", "1x"},
		{"--skip=1"}, {"--all"}, {"--first-parent"}, {"--topo-order"}, {"--date-order"}, {"--reverse"}, {"--since=1.day"},
		{"--author=x"}, {"-3x"}, {"--max-count=+1"}, {"--max-count"}, {"nosuchbranch"}, {"ORIG_HEAD"}, {"@{1}"},
		{"HEAD:f1"}, {"-n", "99999999999"},
	} {
		if _, _, ok := walkLocal(t, r, args, plain); ok {
			t.Errorf("log %q: walked in process", args)
		}
	}
	for _, opts := range []LogOptions{{Files: true}, {Decorate: true}, {ColorDecorate: true}, {Notes: []string{"refs/notes/commits"}},
		{Mark: true}, {Source: true}} {
		if _, _, ok := walkLocal(t, r, nil, opts); ok {
			t.Errorf("options %+v: walked in process", opts)
		}
	}
	declines := func(what string, set, unset func()) {
		t.Helper()
		set()
		if _, _, ok := walkLocal(t, r, nil, plain); ok {
			t.Errorf("%s: walked in process", what)
		}
		unset()
		if _, _, ok := walkLocal(t, r, nil, plain); !ok {
			t.Fatalf("after %s: a plain log declined", what)
		}
	}
	config := func(k, v string) (func(), func()) {
		return func() { r.git("config", k, v) }, func() { r.git("config", "--unset", k) }
	}
	file := func(rel, body string) (func(), func()) {
		p := filepath.Join(r.dir, rel)
		return func() {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}, func() {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}
	}
	for _, c := range []struct{ k, v string }{
		{"i18n.logOutputEncoding", "ISO-8859-1"}, {"i18n.commitEncoding", "ISO-8859-1"}, {"mailmap.file", "/dev/null"},
		{"mailmap.blob", "HEAD:.mailmap"}, {"log.mailmap", "maybe"}, {"core.commitGraph", "maybe"}, {"core.abbrev", "3"},
	} {
		set, unset := config(c.k, c.v)
		if c.k == "core.abbrev" { // only where abbreviations are asked
			set()
			if _, _, ok := walkLocal(t, r, nil, LogOptions{Abbrev: true}); ok {
				t.Errorf("core.abbrev=3: walked in process")
			}
			unset()
			continue
		}
		declines(c.k+"="+c.v, set, unset)
	}
	set, unset := file(".mailmap", "A <a@b> <c@d>\n")
	declines("a .mailmap", set, unset)
	set, unset = file(".git/info/grafts", "")
	declines("grafts", set, unset)
	set, unset = file(".git/shallow", "")
	declines("a shallow clone", set, unset)
	head := r.git("rev-parse", "HEAD")
	set, unset = file(".git/refs/replace/"+head, head+"\n")
	declines("a replacement", set, unset)
	set, unset = file(".git/refs/heads/HEAD", head+"\n")
	declines("a branch named HEAD", set, unset)
	set, unset = file("main", "")
	set()
	if _, _, ok := walkLocal(t, r, []string{"main"}, plain); ok {
		t.Error("log main with a file named main: walked in process")
	}
	unset()
	t.Setenv("GIT_CONFIG_PARAMETERS", "'log.mailmap'='false'")
	if _, _, ok := walkLocal(t, r, nil, plain); ok {
		t.Error("git -c: walked in process")
	}
}

// FuzzLogWalk holds the walk's order to git log's on random histories:
// random parents (roots, merges, octopuses, a parent named twice) and
// random dates, many of them equal or skewed; with a commit-graph when the
// seed's low bit says so. Each input builds a repository: run it briefly.
// fuzz.sh: 150x
func FuzzLogWalk(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 4, 7, 12} {
		f.Add(seed, uint8(14))
	}
	f.Fuzz(func(t *testing.T, seed int64, n uint8) {
		rnd := rand.New(rand.NewSource(seed))
		count := 2 + int(n)%40
		var commits []dagCommit
		for i := range count {
			c := dagCommit{date: 1700000000 + int64(rnd.Intn(6))*100}
			if i > 0 && rnd.Intn(8) > 0 {
				for k := 1 + rnd.Intn(2) + rnd.Intn(2)*rnd.Intn(3); k > 0; k-- {
					c.parents = append(c.parents, rnd.Intn(i))
				}
			}
			commits = append(commits, c)
		}
		// The last commit merges a few more, so most of the history is
		// reachable from main.
		for k := 0; k < 3 && count > 4; k++ {
			commits[count-1].parents = append(commits[count-1].parents, rnd.Intn(count-1))
		}
		r := dagRepo(t, commits)
		if seed&1 == 1 {
			r.git("commit-graph", "write", "--reachable")
		}
		want := strings.Fields(r.git("log", "--format=%H"))
		got, done, ok := walkLocal(t, r, nil, LogOptions{})
		if !ok || !done {
			t.Fatalf("walk declined (ok %v, done %v)", ok, done)
		}
		if strings.Join(hashesOf(got), " ") != strings.Join(shortAll(want), " ") {
			t.Fatalf("order differs:\nin process %v\ngit        %v", hashesOf(got), shortAll(want))
		}
	})
}

func shortAll(hs []string) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h[:7])
	}
	return out
}

// commitParents reads the parents git reads (the lines right after the
// tree's) and declines a header git may read otherwise.
func TestCommitParents(t *testing.T) {
	tree := "tree " + strings.Repeat("a", 40) + "\n"
	p1, p2 := strings.Repeat("1", 40), strings.Repeat("b", 40)
	for _, c := range []struct {
		data string
		want []string
		ok   bool
	}{
		{tree + "author A <a> 1 +0000\n", nil, true},
		{tree + "parent " + p1 + "\nparent " + p2 + "\nauthor A <a> 1 +0000\n", []string{p1, p2}, true},
		{tree + "parent " + p1 + "\nauthor A <a> 1 +0000\nparent " + p2 + "\n", []string{p1}, true}, // git reads no later parent
		{tree + "parent " + strings.ToUpper(p2) + "\n", nil, false},
		{tree + "parent " + p1[:39] + "\n", nil, false},
		{tree + "parent " + p1, nil, false},
		{"tree " + strings.Repeat("A", 40) + "\n", nil, false},
		{"author A <a> 1 +0000\n" + tree, nil, false},
	} {
		ps, ok := commitParents([]byte(c.data))
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if ok != c.ok || ok && fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: %v %v, want %v %v", c.data, got, ok, c.want, c.ok)
		}
	}
}

// A reader that stops (a pager quit) stops the walk: no more commits, no
// error, and the walk's goroutine gone before the store closes.
func TestLogInProcessStops(t *testing.T) {
	r := newTestRepo(t)
	r.fastImport(300)
	r.git("repack", "-adq")
	for _, stopAt := range []int{1, 3, 16, 17, 200} {
		n := 0
		err := Here(r.dir).StreamLog(context.Background(), nil, LogOptions{Body: true, Local: localOf(r)}, func(Commit) bool {
			n++
			return n < stopAt
		})
		if err != nil || n != stopAt {
			t.Errorf("stop at %d: %d commits, %v", stopAt, n, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Here(r.dir).StreamLog(ctx, nil, LogOptions{Local: localOf(r)}, func(Commit) bool {
		if n++; n == 5 {
			cancel()
		}
		return true
	})
	if err != context.Canceled || n != 5 {
		t.Errorf("cancelled after 5: %d commits, %v", n, err)
	}
}

// FuzzReadCommitHeader: any object is read without a panic, and where the
// header is taken, the fields are read from where it says they are (the
// parents' hex where the layout puts them).
func FuzzReadCommitHeader(f *testing.F) {
	tree := "tree " + strings.Repeat("a", 40) + "\n"
	parent := "parent " + strings.Repeat("b", 40) + "\n"
	for _, s := range []string{
		tree + parent + "author A <a@b> 1700000000 +0200\ncommitter C <c@d> 1700000001 -0130\n\nsubject\n\nbody\n",
		tree + "author A <a@b> 1 +0000\ncommitter C <c@d> 2 +0000\nencoding UTF-8\ngpgsig x\n y\n\n",
		tree + parent + parent + "author A <a@b> 1 +0000\n",
		tree + "author A <a@b> 1 +0000\n\ncommitter C <c@d> 2 +0000\n\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, ok := readCommitHeader(data)
		if !ok {
			return
		}
		w := &logWalk{body: true}
		c, ok := w.fields(plumbing.ZeroHash, "", data, &h)
		if !ok {
			return
		}
		for i, p := range h.parents {
			if c.Parents[i] != p.String() {
				t.Fatalf("parent %d: %s, header %s", i, c.Parents[i], p)
			}
		}
		if uint64(c.CommitTime.Unix()) != h.date {
			t.Fatalf("commit time %v, header %d", c.CommitTime, h.date)
		}
	})
}

// LogOptions.Ahead is handed each hash the walk shows, in its order, before
// fn sees it; where git walks (declined, or past a hand-over) nothing.
func TestLogInProcessAhead(t *testing.T) {
	r := newTestRepo(t)
	r.fastImport(300)
	r.git("repack", "-adq")
	// The times handed ahead are the commits' (log's links are found by
	// them): read from the objects, then from a commit-graph.
	for _, graph := range []bool{false, true} {
		if graph {
			r.git("commit-graph", "write", "--reachable")
		}
		for _, args := range [][]string{nil, {"-n", "1"}, {"-n", "16"}, {"-n", "17"}, {"-n", "200"}, {"--author=nobody"}} {
			var mu sync.Mutex // Ahead is called on the walk's goroutine
			var ahead []string
			var secs []int64
			var shown int
			opts := LogOptions{Body: true, Local: localOf(r), Ahead: func(hs []string, ss []int64) {
				mu.Lock()
				ahead = append(ahead, hs...)
				secs = append(secs, ss...)
				mu.Unlock()
			}}
			err := Here(r.dir).StreamLog(context.Background(), args, opts, func(c Commit) bool {
				mu.Lock()
				defer mu.Unlock()
				if shown >= len(ahead) || ahead[shown] != c.Hash {
					t.Fatalf("%q: commit %d (%s) shown before it was handed ahead (%d ahead)", args, shown, c.Hash, len(ahead))
				}
				if len(secs) != len(ahead) || secs[shown] != c.CommitTime.Unix() {
					t.Fatalf("graph %v, %q: commit %d (%s) handed ahead with time %v, its commit time is %d", graph, args, shown, c.Hash, secs[shown:min(len(secs), shown+1)], c.CommitTime.Unix())
				}
				shown++
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if args != nil && args[0] == "--author=nobody" {
				if len(ahead) != 0 {
					t.Errorf("git's walk: %d hashes handed ahead, want none", len(ahead))
				}
				continue
			}
			if shown == 0 || len(ahead) != shown {
				t.Errorf("%q: %d shown, %d handed ahead", args, shown, len(ahead))
			}
		}
	}
	// Stopped early: what was handed ahead starts with what was shown.
	var mu sync.Mutex
	var ahead, shown []string
	opts := LogOptions{Local: localOf(r), Ahead: func(hs []string, _ []int64) {
		mu.Lock()
		ahead = append(ahead, hs...)
		mu.Unlock()
	}}
	if err := Here(r.dir).StreamLog(context.Background(), nil, opts, func(c Commit) bool {
		shown = append(shown, c.Hash)
		return len(shown) < 20
	}); err != nil || len(shown) != 20 || len(ahead) < 20 || !slices.Equal(ahead[:20], shown) { // StreamLog waits for the walk's goroutine
		t.Errorf("stopped at 20: %d shown, %d ahead, %v", len(shown), len(ahead), err)
	}
}
