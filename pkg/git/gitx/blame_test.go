package gitx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lineOracle parses `git blame --line-porcelain`, which repeats every detail
// on every line: a second reading of git's answer, independent of ParseBlame.
func lineOracle(t *testing.T, out string) []BlameLine {
	t.Helper()
	var lines []BlameLine
	var cur BlameLine
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if text, ok := strings.CutPrefix(l, "\t"); ok {
			cur.Text = text
			lines = append(lines, cur)
			cur = BlameLine{}
			continue
		}
		k, v, _ := strings.Cut(l, " ")
		switch k {
		case "author":
			cur.Author = v
		case "author-mail":
			cur.AuthorMail = strings.Trim(v, "<>")
		case "author-time":
			n, _ := strconv.ParseInt(v, 10, 64)
			cur.AuthorTime = time.Unix(n, 0)
		case "summary":
			cur.Summary = v
		case "filename":
			cur.Filename = v
			if u, err := strconv.Unquote(v); err == nil {
				cur.Filename = u
			}
		case "boundary":
			cur.Boundary = true
		case "previous":
			cur.Previous, cur.PreviousFilename, _ = strings.Cut(v, " ")
			if u, err := strconv.Unquote(cur.PreviousFilename); err == nil {
				cur.PreviousFilename = u
			}
		default:
			if IsFullHash(k) {
				f := strings.Fields(v)
				cur.Commit = k
				cur.OrigLine, _ = strconv.Atoi(f[0])
				cur.Line, _ = strconv.Atoi(f[1])
			}
		}
	}
	return lines
}

func TestBlameMatchesGit(t *testing.T) {
	r := newTestRepo(t)
	r.write("f.go", "one\ntwo\nthree\n")
	r.commit("first")
	r.write("f.go", "one\n\tTWO with a tab and CRLF\r\nthree\n\t\tfour\n")
	r.git("add", "-A")
	r.at("commit", "-q", "--author=Other Person <other@example.com>", "-m", "second, by someone else")
	r.git("rm", "-q", "f.go")
	r.write("dir ü/g.go", "one\n\tTWO with a tab and CRLF\r\nthree\n\t\tfour\nfive\n")
	r.commit("rename and add five")
	r.write("dir ü/g.go", "one\n\tTWO with a tab and CRLF\r\nthree\n\t\tfour\nfive\nuncommitted\n")
	repo := r.open()
	ctx := context.Background()
	zero := strings.Repeat("0", 40)
	for _, tc := range []struct {
		name    string
		opts    BlameOptions
		n       int
		commits []string // per line: the commit's subject, or "" for uncommitted
	}{
		{"work tree, renamed file", BlameOptions{Path: "dir ü/g.go"}, 6,
			[]string{"first", "second, by someone else", "first", "second, by someone else", "rename and add five", ""}},
		{"at HEAD", BlameOptions{Rev: "HEAD", Path: "dir ü/g.go"}, 5, nil},
		{"older revision and old name, -L", BlameOptions{Rev: "HEAD~1", Path: "f.go", Ranges: []string{"2,3"}}, 2,
			[]string{"second, by someone else", "first"}},
		{"two ranges", BlameOptions{Rev: "HEAD", Path: "dir ü/g.go", Ranges: []string{"1,1", "4,5"}}, 3, nil},
		{"boundary of a range", BlameOptions{Rev: "HEAD~1..HEAD", Path: "dir ü/g.go"}, 5, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := repo.Blame(ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"blame", "--line-porcelain"}
			for _, l := range tc.opts.Ranges {
				args = append(args, "-L", l)
			}
			if tc.opts.Rev != "" {
				args = append(args, tc.opts.Rev)
			}
			want := lineOracle(t, r.git(append(args, "--", tc.opts.Path)...)+"\n")
			if len(got) != tc.n || len(want) != tc.n {
				t.Fatalf("%d lines, git %d, want %d", len(got), len(want), tc.n)
			}
			for i := range got {
				g, w := got[i], want[i]
				if !g.AuthorTime.Equal(w.AuthorTime) {
					t.Errorf("line %d: time %v, git %v", g.Line, g.AuthorTime, w.AuthorTime)
				}
				g.AuthorTime = w.AuthorTime
				if g != w {
					t.Errorf("line %d:\n got %+v\n git %+v", i+1, g, w)
				}
			}
			for i, subject := range tc.commits {
				if (subject == "") != (got[i].Commit == zero) || subject != "" && got[i].Summary != subject {
					t.Errorf("line %d: %q (%s), want %q", got[i].Line, got[i].Summary, got[i].Commit, subject)
				}
			}
		})
	}
	t.Run("details", func(t *testing.T) {
		lines, err := repo.Blame(ctx, BlameOptions{Path: "dir ü/g.go"})
		if err != nil {
			t.Fatal(err)
		}
		two, four, five := lines[1], lines[3], lines[4]
		if two.Text != "\tTWO with a tab and CRLF\r" || four.Text != "\t\tfour" || two.Author != "Other Person" ||
			two.AuthorMail != "other@example.com" || two.Filename != "f.go" || five.Filename != "dir ü/g.go" {
			t.Errorf("%+v\n%+v\n%+v", two, four, five)
		}
		if _, off := two.AuthorTime.Zone(); off != 7200 {
			t.Errorf("author time %v: want the author's zone", two.AuthorTime)
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			opts BlameOptions
			want string
		}{
			{BlameOptions{Path: "missing.go"}, "missing.go"},
			{BlameOptions{Rev: "no-such-rev", Path: "dir ü/g.go"}, "no-such-rev"},
			{BlameOptions{Rev: "--contents=/etc/passwd", Path: "dir ü/g.go"}, `unknown revision "--contents`},
		} {
			if _, err := repo.Blame(ctx, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: %v, want %q", tc.opts, err, tc.want)
			}
		}
	})
}

func TestParseBlameMalformed(t *testing.T) {
	h := strings.Repeat("a", 40)
	for _, tc := range []struct {
		name, in string
		lines    int
		wantErr  bool
	}{
		{"empty", "", 0, false},
		{"content first", "\tcontent\n", 0, true},
		{"header without numbers", h + "\n\tx\n", 0, true},
		{"header with a zero line", h + " 1 0 1\n\tx\n", 0, true},
		{"two headers in a row", h + " 1 1 1\n" + h + " 2 2\n\tx\n", 0, true},
		{"ends inside a line", h + " 1 1 1\nauthor A\n", 0, true},
		{"noise before the first header", "junk\n" + h + " 1 1 1\n\tx", 1, false},
		{"no final newline, CRLF", h + " 1 1 1\r\n\tx\r\n" + h + " 2 2\n\ty", 2, false},
		{"a long line", h + " 1 1 1\n\t" + strings.Repeat("z", 200000) + "\n", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, err := ParseBlame(strings.NewReader(tc.in))
			if (err != nil) != tc.wantErr || len(lines) != tc.lines {
				t.Errorf("%d lines, %v", len(lines), err)
			}
		})
	}
}

// FuzzParseBlame: whatever it is given, the parser does not panic, and each
// line it returns belongs to a commit and has a line number. Seeds are in
// testdata/fuzz/FuzzParseBlame.
func FuzzParseBlame(f *testing.F) {
	f.Fuzz(func(t *testing.T, in string) {
		lines, err := ParseBlame(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, l := range lines {
			if !IsFullHash(l.Commit) || l.Line < 1 {
				t.Fatalf("bad line %+v", l)
			}
		}
	})
}

// BenchmarkBlame compares git-convo's blame with plain `git blame
// --porcelain` of the same 3,000-line file written over 30 commits.
func BenchmarkBlame(b *testing.B) {
	r := newTestRepo(b)
	lines := make([]string, 3000)
	for c := range 30 {
		for i := c; i < len(lines); i += 30 {
			lines[i] = fmt.Sprintf("\tline %d, written by commit %d // %s", i, c, strings.Repeat("x", i%50))
		}
		r.write("big.go", strings.Join(lines, "\n")+"\n")
		r.commit(fmt.Sprintf("commit %d", c))
	}
	repo := r.open()
	b.Run("gitx", func(b *testing.B) {
		for b.Loop() {
			if got, err := repo.Blame(context.Background(), BlameOptions{Path: "big.go"}); err != nil || len(got) != 3000 {
				b.Fatal(err, len(got))
			}
		}
	})
	b.Run("git", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "blame", "--porcelain", "--", "big.go")
			cmd.Dir, cmd.Stdout = r.dir, io.Discard
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		cmd := exec.Command("git", "blame", "--porcelain", "--", "big.go")
		cmd.Dir = r.dir
		data, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseBlame(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestUnquotePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain/path.go", "plain/path.go"},
		{`"dir \303\274/g.go"`, "dir ü/g.go"},
		{`"tab\there"`, "tab\there"},
		{`"quo\"te \\ back"`, `quo"te \ back`},
		{`"\a\b\v\f\r\n"`, "\a\b\v\f\r\n"},
		{`"raw \377 byte"`, "raw \xff byte"},
		{`"short \30"`, `short \30`},
		{`"trailing \"`, `trailing \`},
		{`"`, `"`},
		{`"unterminated`, `"unterminated`},
	} {
		if got := unquotePath(tc.in); got != tc.want {
			t.Errorf("unquotePath(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
