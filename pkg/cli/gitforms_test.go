package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// formsRepo is a history for holding every argument form against git: two
// authors, dates from two months to a day ago, a function for -L :name,
// whitespace-only and copied lines for -w and -C, commas in a line and in a
// message, a two-line first paragraph with tabs, an ISO-8859-1 message and
// an annotated tag.
func formsRepo(t *testing.T, sb *sandbox) string {
	t.Helper()
	repo := sb.repo("forms")
	sb.convo(repo, "install", "--cursor=none")
	now := time.Now()
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	code := "package p\n\nfunc alpha() int {\n\treturn 1\n}\n\nfunc beta() int {\n\treturn 2\n}\n"
	steps := []struct {
		daysAgo int
		author  string
		msg     string
		files   map[string]string
		extra   []string // git commit options
	}{
		{60, "Ada Tester <ada@example.com>", "root of the forms", map[string]string{
			"f.txt": strings.Join(lines, "\n") + "\n", "code.go": code}, nil},
		{30, "Bob Other <bob@example.com>", "second: fix lines", map[string]string{
			"f.txt": strings.Replace(strings.Replace(strings.Join(lines, "\n")+"\n", "line 3", "LINE 3", 1), "line 7", "LINE 7", 1)}, nil},
		{5, "Ada Tester <ada@example.com>", "third touches beta\nand spaces\n\n\tindented\tbody, with tabs", map[string]string{
			"code.go": strings.Replace(code, "return 2", "return 22", 1),
			"f.txt":   strings.Replace(strings.Replace(strings.Join(lines, "\n")+"\n", "line 3", "LINE 3", 1), "line 7", "LINE 7", 1) + ""}, nil},
		{2, "Bob Other <bob@example.com>", "fourth copies lines", map[string]string{
			"g.txt": "line 1\nline 2\nLINE 3\nline 4\nnew in g\n"}, nil},
		{1, "Ada Tester <ada@example.com>", "fifth: commas, in message", map[string]string{
			"f.txt": strings.Replace(strings.Replace(strings.Join(lines, "\n")+"\n", "line 3", "LINE 3", 1), "line 7", "LINE 7", 1) + "a,b,c\n"}, nil},
	}
	for i, s := range steps {
		for rel, body := range s.files {
			sb.write(repo, rel, body)
		}
		if i == 2 {
			// A whitespace-only change for -w.
			body := strings.Replace(s.files["f.txt"], "line 5", "line  5", 1)
			sb.write(repo, "f.txt", body)
		}
		date := now.Add(-time.Duration(s.daysAgo) * 24 * time.Hour).Format(time.RFC3339)
		env := sb.with("GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		sb.runEnv(repo, env, "", "git", "add", "-A")
		if r := sb.runEnv(repo, env, "", append([]string{"git", "commit", "-q", "--author=" + s.author, "-m", s.msg}, s.extra...)...); r.code != 0 {
			t.Fatalf("commit: %s", r.stderr)
		}
	}
	// An ISO-8859-1 message, which git shows in UTF-8.
	msg := filepath.Join(sb.root, "latin1.txt")
	if err := os.WriteFile(msg, []byte("caf\xe9 na\xefve\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.run(repo, "git", "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "--allow-empty", "-F", msg)
	// A message holding the record separator an old framing used, and a
	// file with CRLF lines.
	if err := os.WriteFile(msg, []byte("record\x1eseparator \x1e in a message\n\nbody \x1e too\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.write(repo, "crlf.txt", "windows\r\nlines\r\n")
	sb.run(repo, "git", "add", "crlf.txt")
	sb.run(repo, "git", "commit", "-q", "--cleanup=verbatim", "-F", msg)
	sb.run(repo, "git", "tag", "-a", "-m", "tag message", "v1", "HEAD~3")
	return repo
}

// blameLines reads git convo blame --json into git's porcelain fields.
func blameLines(t *testing.T, out string) []gitx.BlameLine {
	t.Helper()
	var got []gitx.BlameLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var bl blameLineJSON
		if err := json.Unmarshal([]byte(l), &bl); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got = append(got, gitx.BlameLine{Line: bl.Line, OrigLine: bl.OrigLine, Commit: bl.Commit, Text: bl.Text, Filename: bl.Path})
	}
	return got
}

// firstFields is each line's first field: blame's hash column.
func firstFields(out string) []string {
	var f []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if fs := strings.Fields(l); len(fs) > 0 {
			f = append(f, fs[0])
		}
	}
	return f
}

// TestGitFormsMatchGit holds every blame, log and show argument form of
// issues 11 and 18 against git's own answer to the same arguments.
func TestGitFormsMatchGit(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := formsRepo(t, sb)
	git := func(args ...string) string { t.Helper(); return sb.run(repo, append([]string{"git"}, args...)...) }
	// convo fails the subtest, not the whole table, when git convo fails.
	convo := func(t *testing.T, args ...string) string {
		t.Helper()
		r := sb.runEnv(repo, sb.env, "", append([]string{"git", "convo"}, args...)...)
		if r.code != 0 {
			t.Fatalf("git convo %q exited %d: %s", args, r.code, r.stderr)
		}
		return r.stdout
	}

	t.Run("blame", func(t *testing.T) {
		for _, args := range [][]string{
			{"f.txt"},
			{"-L", "2,2", "f.txt"},
			{"-L2,4", "f.txt"},
			{"-L", "3,+2", "f.txt"},
			{"-L", "6,-3", "f.txt"},
			{"-L", "/line 5/,+2", "f.txt"},
			{"-L", ":beta", "code.go"},
			{"-L:alpha", "code.go"},
			{"-L", "1,2", "-L", "8,9", "f.txt"},
			{"f.txt", "-L", "1,2"},
			{"-L", "1,1", "--", "f.txt"},
			{"HEAD~3", "f.txt"},
			{"HEAD~3", "--", "f.txt"},
			{"-M", "f.txt"},
			{"-C", "-C", "g.txt"},
			{"-w", "f.txt"},
			{"-s", "f.txt"},
			{"-e", "f.txt"},
			{"-sw", "f.txt"},
			{"--since=3.weeks", "f.txt"},
			{"--since", "3.weeks", "f.txt"},
			{"--reverse", "HEAD~4..HEAD~1", "f.txt"},
			{"--root", "f.txt"},
			{"--abbrev=12", "f.txt"},
			{"--abbrev=0", "f.txt"},
			{"--abbrev=2", "f.txt"},
			{"-l", "f.txt"},
			{"-b", "f.txt"},
			{"crlf.txt"},
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				want, err := gitx.ParseBlame(strings.NewReader(git(append([]string{"blame", "--porcelain"}, args...)...)))
				if err != nil {
					t.Fatal(err)
				}
				got := blameLines(t, convo(t, append([]string{"blame", "--json"}, args...)...))
				if len(got) != len(want) || len(want) == 0 {
					t.Fatalf("%d lines, git %d", len(got), len(want))
				}
				for i := range want {
					w := gitx.BlameLine{Line: want[i].Line, OrigLine: want[i].OrigLine, Commit: want[i].Commit, Text: want[i].Text, Filename: want[i].Filename}
					if got[i] != w {
						t.Errorf("line %d: %+v, git %+v", i+1, got[i], w)
					}
				}
				// The text's hash column is git's own: width, "^" of a boundary.
				if g, w := firstFields(convo(t, append([]string{"blame"}, args...)...)), firstFields(git(append([]string{"blame"}, args...)...)); !reflect.DeepEqual(g, w) {
					t.Errorf("hash column %q, git %q", g, w)
				}
			})
		}
		t.Run("CRLF kept", func(t *testing.T) {
			if out := convo(t, "blame", "crlf.txt"); !strings.Contains(out, ") windows\r\n") {
				t.Errorf("text: %q", out)
			}
		})
		t.Run("-s and -e columns", func(t *testing.T) {
			if out := convo(t, "blame", "-e", "-L1,1", "f.txt"); !strings.Contains(out, "(<ada@example.com> ") {
				t.Errorf("-e: %q", out)
			}
			if out := convo(t, "blame", "-s", "-L1,1", "f.txt"); strings.Contains(out, "Ada") || !strings.Contains(out, " 1) line 1") {
				t.Errorf("-s: %q", out)
			}
			git("config", "blame.showEmail", "yes")
			git("config", "blame.blankBoundary", "true")
			defer git("config", "--remove-section", "blame")
			if out := convo(t, "blame", "-L1,1", "f.txt"); !strings.Contains(out, "(<ada@example.com> ") {
				t.Errorf("blame.showEmail: %q", out)
			}
			if g, w := firstFields(convo(t, "blame", "f.txt")), firstFields(git("blame", "f.txt")); !reflect.DeepEqual(g, w) {
				t.Errorf("blame.blankBoundary: hash column %q, git %q", g, w)
			}
		})
	})

	t.Run("log", func(t *testing.T) {
		for _, args := range [][]string{
			{},
			{"-n5"},
			{"-n", "2"},
			{"-3"},
			{"--since=2.weeks"},
			{"--since", "2.weeks"},
			{"-Sa,b,c"},
			{"-S", "a,b,c"},
			{"--author=Bob"},
			{"--author", "Ada Tester"},
			{"--grep=commas, in"},
			{"f.txt"},
			{"-n1", "f.txt"},
			{"--", "g.txt"},
			{"HEAD~3..HEAD"},
			{"HEAD~3..HEAD", "--", "f.txt"},
			{"--abbrev=12", "-n2"},
			{"--no-abbrev", "-n2"},
			{"--reverse", "--max-count=2"},
			{"--end-of-options", "HEAD~1"},
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				want := strings.Fields(git(append([]string{"log", "--format=%H"}, args...)...))
				var got []string
				for _, l := range strings.Split(strings.TrimSpace(convo(t, append([]string{"log", "--json"}, args...)...)), "\n") {
					if l == "" {
						continue
					}
					var s showJSON
					if err := json.Unmarshal([]byte(l), &s); err != nil {
						t.Fatal(err)
					}
					got = append(got, s.Commit.Hash)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("commits %q\ngit      %q", got, want)
				}
				// The text's hashes are git's abbreviations.
				if g, w := firstFields(convo(t, append([]string{"log"}, args...)...)), strings.Fields(git(append([]string{"log", "--format=%h"}, args...)...)); !reflect.DeepEqual(g, w) {
					t.Errorf("hashes %q, git %q", g, w)
				}
			})
		}
		// Plain forms are walked in process (no git started where the
		// history below is plain; HEAD~1 is ISO-8859-1, which hands the
		// walk to git): text and JSON are the same either way.
		t.Run("in process and with git", func(t *testing.T) {
			trace := filepath.Join(sb.root, "log-trace")
			now := time.Now().UTC().Format(time.RFC3339)
			run := func(withGit bool, args ...string) (result, int) {
				os.Remove(trace)
				// One clock for both runs: a second may pass between them, and
				// the text's relative dates would differ.
				env := sb.with("GIT_TRACE="+trace, "GIT_CONVO_NOW="+now)
				if withGit {
					env = append(env, "GIT_CONVO_READ_WITH_GIT=1")
				}
				r := sb.runEnv(repo, env, "", append([]string{binPath, "log"}, args...)...)
				b, _ := os.ReadFile(trace)
				return r, strings.Count(string(b), "trace: built-in: git ")
			}
			for _, form := range []struct {
				args      []string
				inProcess bool
			}{
				{[]string{"HEAD~2"}, true},
				{[]string{"-n", "2", "HEAD~2"}, true},
				{[]string{"--max-count=1", "main~3"}, true},
				{nil, false},
				{[]string{"-2"}, false},
				{[]string{"HEAD~2", "--", "f.txt"}, false},
			} {
				for _, json := range []bool{false, true} {
					args := form.args
					if json {
						args = append([]string{"--json"}, args...)
					}
					a, n := run(false, args...)
					b, _ := run(true, args...)
					if a.code != 0 || b.code != 0 || a.stdout != b.stdout || a.stdout == "" {
						t.Errorf("log %q: in process (exit %d)\n%s\nwith git (exit %d)\n%s", args, a.code, a.stdout, b.code, b.stdout)
					}
					if (n == 0) != form.inProcess {
						t.Errorf("log %q: %d git processes", args, n)
					}
				}
			}
		})
		t.Run("--oneline is git's line", func(t *testing.T) {
			if got, want := convo(t, "log", "--oneline", "-n3"), git("log", "--oneline", "-n3"); got != want {
				t.Errorf("got\n%s\ngit\n%s", got, want)
			}
		})
		t.Run("--name-only lists git's paths", func(t *testing.T) {
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(convo(t, "log", "--json", "--name-only", "-n3")), "\n") {
				var s showJSON
				if err := json.Unmarshal([]byte(l), &s); err != nil {
					t.Fatal(err)
				}
				got = append(got, s.Commit.Hash)
				got = append(got, s.Commit.Files...)
			}
			want := strings.Fields(git("log", "--name-only", "--format=%H", "-n3"))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %q\ngit %q", got, want)
			}
		})
	})

	t.Run("show", func(t *testing.T) {
		convo(t, "show") // drains what the commits queued: the traces below are show's own
		trace := filepath.Join(sb.root, "show-trace")
		// gits runs git convo show straight (no git in front) and counts the
		// git processes it started; with GIT_CONVO_READ_WITH_GIT, show
		// always asks git, so every form runs both ways.
		gits := func(t *testing.T, withGit bool, args ...string) (result, int) {
			t.Helper()
			os.Remove(trace)
			env := sb.with("GIT_TRACE=" + trace)
			if withGit {
				env = append(env, "GIT_CONVO_READ_WITH_GIT=1")
			}
			r := sb.runEnv(repo, env, "", append([]string{binPath, "show"}, args...)...)
			b, _ := os.ReadFile(trace)
			return r, strings.Count(string(b), "trace: built-in: git ")
		}
		for _, form := range []struct {
			args      []string
			inProcess bool // answered from the files, no git started
		}{
			{nil, true},
			{[]string{"HEAD~2"}, true},
			{[]string{"@~2"}, true},
			{[]string{"main"}, true},
			{[]string{"HEAD~3^{commit}"}, true},
			{[]string{"v1^{commit}"}, true},
			{[]string{"v1~1"}, true},
			{[]string{"--end-of-options", "HEAD~3"}, true},
			{[]string{strings.TrimSpace(git("rev-list", "--max-parents=0", "HEAD"))}, true}, // the root commit
			{[]string{"HEAD~4"}, true},  // a two-line first paragraph and tabs
			{[]string{"HEAD"}, true},    // 0x1e in the message
			{[]string{"HEAD~1"}, false}, // ISO-8859-1: git re-encodes it
			{[]string{"v1"}, false},     // an annotated tag: its header first
			{[]string{strings.TrimSpace(git("rev-parse", "--short", "HEAD~2"))}, false},
			{[]string{":/second"}, false},
			{[]string{":/fifth: commas"}, false},
			{[]string{"HEAD~3..HEAD~1"}, false},
			{[]string{"-1"}, false},
			{[]string{"-2"}, false},
			{[]string{"HEAD~1", "HEAD~4"}, false},
			{[]string{"--date=iso", "HEAD~2"}, false},
			{[]string{"f.txt"}, false}, // a path: HEAD, limited to it
		} {
			args := form.args
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				want := git(append([]string{"show", "--no-patch"}, args...)...)
				var wantHashes []string // a tag's header comes before its commit
				for _, f := range strings.Fields(git(append([]string{"show", "--no-patch", "--format=%H"}, args...)...)) {
					if gitx.IsFullHash(f) {
						wantHashes = append(wantHashes, f)
					}
				}
				for _, withGit := range []bool{false, true} {
					r, n := gits(t, withGit, args...)
					if r.code != 0 {
						t.Fatalf("git convo show %q (git path %v) exited %d: %s", args, withGit, r.code, r.stderr)
					}
					if want := !form.inProcess || withGit; (n > 0) != want {
						t.Errorf("git path %v: started %d git processes", withGit, n)
					}
					// Without the conversations, what remains is git's own.
					got := strings.ReplaceAll(r.stdout, "\n\n    No linked conversation. (git convo link <conversation> <rev> links one by hand.)\n", "\n")
					if strings.TrimSuffix(want, "\n") != strings.TrimSuffix(got, "\n") {
						t.Errorf("git path %v: got\n%s\ngit\n%s", withGit, got, want)
					}
					r, _ = gits(t, withGit, append([]string{"--json"}, args...)...)
					var hashes []string
					for _, l := range strings.Split(r.stdout, "\n") {
						if l == "" {
							continue
						}
						var s showJSON
						if err := json.Unmarshal([]byte(l), &s); err != nil {
							t.Fatal(err)
						}
						hashes = append(hashes, s.Commit.Hash)
					}
					if !reflect.DeepEqual(hashes, wantHashes) {
						t.Errorf("git path %v: json commits %q, git %q", withGit, hashes, wantHashes)
					}
				}
				// Both paths print the same JSON.
				a, _ := gits(t, false, append([]string{"--json"}, args...)...)
				b, _ := gits(t, true, append([]string{"--json"}, args...)...)
				if a.stdout != b.stdout {
					t.Errorf("json in process\n%s\nwith git\n%s", a.stdout, b.stdout)
				}
			})
		}
		// Revisions git refuses: git's own error, from git.
		for _, args := range [][]string{{"HEAD:f.txt"}, {"@{u}"}, {"nope"}, {"HEAD~9"}} {
			r, _ := gits(t, false, args...)
			g := sb.runEnv(repo, sb.env, "", append([]string{"git", "show", "--no-patch"}, args...)...)
			if (r.code == 0 || g.code == 0) != (args[0] == "HEAD:f.txt") {
				t.Errorf("%q: exit %d, git %d", args, r.code, g.code)
			}
			if args[0] == "HEAD:f.txt" {
				// git shows a blob: so does show, as git prints it.
				if r.code != 0 || r.stdout != g.stdout {
					t.Errorf("%q: %q, git %q", args, r.stdout, g.stdout)
				}
				continue
			}
			if msg := strings.TrimSpace(strings.SplitN(g.stderr, "\n", 2)[0]); !strings.Contains(r.stderr, strings.TrimPrefix(msg, "fatal: ")) {
				t.Errorf("%q: %q, git %q", args, r.stderr, g.stderr)
			}
		}
	})

	t.Run("show on a terminal decorates as git does", func(t *testing.T) {
		ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
		var env []string
		for _, kv := range sb.env {
			if !strings.HasPrefix(kv, "NO_COLOR=") {
				env = append(env, kv)
			}
		}
		git("update-ref", "refs/remotes/origin/main", "HEAD~3")
		defer git("update-ref", "-d", "refs/remotes/origin/main")
		for _, rev := range []string{"HEAD", "HEAD~3", "v1^{commit}", "HEAD~2"} {
			want := ansi.ReplaceAllString(sb.onTTY(repo, env, "git", "--no-pager", "show", "--no-patch", rev), "")
			// In process, and asking git.
			for _, e := range [][]string{env, append(env[:len(env):len(env)], "GIT_CONVO_READ_WITH_GIT=1")} {
				got := ansi.ReplaceAllString(sb.onTTY(repo, e, "git", "convo", "show", "--no-pager", rev), "")
				got = strings.ReplaceAll(got, "\n\n    No linked conversation. (git convo link <conversation> <rev> links one by hand.)\n", "\n")
				if rev != "HEAD~2" && !strings.Contains(want, "(") || strings.TrimSuffix(got, "\n") != strings.TrimSuffix(want, "\n") {
					t.Errorf("%s: got\n%q\ngit\n%q", rev, got, want)
				}
			}
		}
	})

	t.Run("core.abbrev", func(t *testing.T) {
		git("config", "core.abbrev", "11")
		defer git("config", "--unset", "core.abbrev")
		if g, w := firstFields(convo(t, "log")), strings.Fields(git("log", "--format=%h")); !reflect.DeepEqual(g, w) {
			t.Errorf("log hashes %q, git %q", g, w)
		}
		if g, w := firstFields(convo(t, "blame", "f.txt")), firstFields(git("blame", "f.txt")); !reflect.DeepEqual(g, w) {
			t.Errorf("blame hashes %q, git %q", g, w)
		}
	})

	t.Run("refused and protected", func(t *testing.T) {
		for _, args := range [][]string{
			{"log", "--graph"}, {"log", "-p"}, {"log", "--stat"}, {"log", "--format=%H"}, {"log", "-pw"},
			{"show", "-p"}, {"show", "--stat"}, {"show", "--oneline"}, {"stats", "--oneline"}, {"stats", "--graph"},
			{"blame", "-t", "f.txt"}, {"blame", "-n", "f.txt"}, {"blame", "--porcelain", "f.txt"},
		} {
			r := sb.runEnv(repo, sb.env, "", append([]string{"git", "convo"}, args...)...)
			if r.code != ExitUsage || !strings.Contains(r.stderr, "run git") && !strings.Contains(r.stderr, "git convo log") {
				t.Errorf("%q: exit %d, %q", args, r.code, r.stderr)
			}
		}
		secret := sb.write(sb.root, "secret.txt", "do not print me\n")
		for _, args := range [][]string{
			{"blame", "--", "--contents=" + secret, "f.txt"},
			{"blame", "--", "--contents=" + secret},
			{"log", "--", "--output=" + secret},
			{"show", "--end-of-options", "--output=" + secret},
		} {
			r := sb.runEnv(repo, sb.env, "", append([]string{"git", "convo"}, args...)...)
			if strings.Contains(r.stdout, "do not print me") {
				t.Errorf("%q printed the file", args)
			}
			if b, _ := os.ReadFile(secret); string(b) != "do not print me\n" {
				t.Fatalf("%q wrote the file", args)
			}
		}
	})
}

// TestQuotedPathsKeepTheirWriter blames files whose names git C-quotes
// (non-ASCII under core.quotePath=true; a quote, a backslash, a tab or a
// newline under any setting): an agent's lines stay the agent's, and JSON
// names the real path.
func TestQuotedPathsKeepTheirWriter(t *testing.T) {
	skipOnWindows(t)
	names := []string{"café.txt", "dir ü/naïve.txt", `quo"te.txt`, `back\slash.txt`, "tab\there.txt", "new\nline.txt", "plain.txt", " lead and trail ", "ü\"\\\t\nall.txt"}
	for _, quotePath := range []string{"true", "false"} {
		t.Run("core.quotePath="+quotePath, func(t *testing.T) {
			sb := newSandbox(t)
			repo := sb.repo("quoted")
			sb.run(repo, "git", "config", "core.quotePath", quotePath)
			sb.convo(repo, "install", "--cursor=none")
			const conv = "cccccccc-0000-0000-0000-000000000003"
			for i, name := range names {
				sb.agentEdit(repo, conv, name, fmt.Sprintf("written by the agent %d\nsecond line %d\n", i, i))
			}
			sb.run(repo, "git", "add", "-A")
			sb.run(repo, "git", "commit", "-q", "-m", "odd names")
			for _, name := range names {
				out := sb.convo(repo, "blame", "--json", "--", name)
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					var bl blameLineJSON
					if err := json.Unmarshal([]byte(l), &bl); err != nil {
						t.Fatal(err)
					}
					if bl.Attribution != attrAgent || bl.Path != name || bl.WrittenBy == nil || *bl.WrittenBy != conv {
						t.Errorf("%q line %d: %s %q", name, bl.Line, bl.Attribution, bl.Path)
					}
				}
				if text := sb.convo(repo, "blame", "--", name); strings.Contains(text, "(by hand)") {
					t.Errorf("%q: %s", name, text)
				}
			}
		})
	}
}

// TestRenameKeepsWriters: an agent writes a file, a person moves it with
// git mv and changes one line. The move adds only that line: its writers stay
// with the agent's commit, stats counts the agent's lines once, and the
// move's link claims no lines the agent wrote in it.
func TestRenameKeepsWriters(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("renames")
	sb.convo(repo, "install", "--cursor=none")
	const conv = "dddddddd-0000-0000-0000-000000000004"
	var body strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&body, "agent line %d\n", i)
	}
	sb.agentEdit(repo, conv, "old.txt", body.String())
	first := sb.commit(repo, "agent writes old.txt", "old.txt")
	sb.run(repo, "git", "mv", "old.txt", "new.txt")
	sb.write(repo, "new.txt", strings.Replace(body.String(), "agent line 40\n", "person line 40\n", 1))
	sb.run(repo, "git", "add", "-A")
	sb.run(repo, "git", "commit", "-q", "-m", "move by hand")

	var st statsJSON
	if err := json.Unmarshal([]byte(sb.convo(repo, "stats", "--json", "HEAD~2..HEAD")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Added != 41 || st.Agent != 40 {
		t.Errorf("stats: %d of %d added lines by agents, want 40 of 41", st.Agent, st.Added)
	}
	moved := sb.showJSON(repo, "HEAD")
	for _, c := range moved.Conversations {
		if c.WrittenLines != 0 || c.AddedLines > 1 {
			t.Errorf("the move claims %d of %d added lines for %s: %s", c.WrittenLines, c.AddedLines, c.ID, c.Reason)
		}
	}
	for i, bl := range blameLines(t, sb.convo(repo, "blame", "--json", "new.txt")) {
		if i < 39 && (bl.Commit != first || bl.Filename != "old.txt") {
			t.Errorf("line %d: %+v, want the agent's commit under the old name", bl.Line, bl)
		}
	}
	out := sb.convo(repo, "blame", "--json", "-L1,1", "new.txt")
	var bl blameLineJSON
	if err := json.Unmarshal([]byte(out), &bl); err != nil || bl.Attribution != attrAgent {
		t.Errorf("a moved line lost its writer: %s", out)
	}
}

// TestDotfilesRepository: a git dir apart from its work tree, used through
// GIT_DIR and GIT_WORK_TREE as "dotfiles" setups do. The agent's edit is
// captured under that repository and the commit is linked to it.
func TestDotfilesRepository(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	home := filepath.Join(sb.root, "dots")
	gitDir := filepath.Join(home, ".cfg")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.run(home, "git", "init", "-q", "--bare", gitDir)
	env := sb.with("GIT_DIR="+gitDir, "GIT_WORK_TREE="+home)
	run := func(args ...string) result {
		t.Helper()
		r := sb.runEnv(home, env, "", args...)
		if r.code != 0 {
			t.Fatalf("%q exited %d: %s", args, r.code, r.stderr)
		}
		return r
	}
	run("git", "convo", "install", "--cursor=none")
	const conv = "eeeeeeee-0000-0000-0000-000000000005"
	body := "alias ll='ls -l'\nexport EDITOR=vim\n"
	for _, ev := range []struct {
		event  string
		fields map[string]any
	}{
		{"beforeSubmitPrompt", map[string]any{"prompt": "set up my shell"}},
		{"afterFileEdit", map[string]any{"file_path": sb.write(home, ".bashrc", body), "edits": []map[string]string{{"old_string": "", "new_string": body}}}},
		{"stop", map[string]any{"status": "completed"}},
	} {
		payload := map[string]any{"conversation_id": conv, "generation_id": "gen-1", "hook_event_name": ev.event,
			"workspace_roots": []string{home}}
		for k, v := range ev.fields {
			payload[k] = v
		}
		b, _ := json.Marshal(payload)
		if r := sb.runEnv(home, env, string(b), "git", "convo", "capture"); r.code != 0 {
			t.Fatalf("capture: %s", r.stderr)
		}
	}
	run("git", "add", ".bashrc")
	run("git", "commit", "-q", "-m", "shell setup")
	var s showJSON
	if err := json.Unmarshal([]byte(run("git", "convo", "show", "--json").stdout), &s); err != nil {
		t.Fatal(err)
	}
	if !s.Commit.Recorded || !has(convIDs(s), conv) {
		t.Errorf("recorded %v, conversations %q", s.Commit.Recorded, convIDs(s))
	}
}

// TestNewlineInRepositoryPath: every command works in a repository whose
// path holds a newline.
func TestNewlineInRepositoryPath(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("a\nrepo\ntrue\nsha1")
	sb.convo(repo, "install", "--cursor=none")
	sb.agentEdit(repo, "ffffffff-0000-0000-0000-000000000006", "f.txt", "agent text\n")
	sb.commit(repo, "agent commit", "f.txt")
	s := sb.showJSON(repo, "HEAD")
	if !s.Commit.Recorded || len(s.Conversations) != 1 {
		t.Errorf("recorded %v, %d conversations", s.Commit.Recorded, len(s.Conversations))
	}
	for _, args := range [][]string{{"log"}, {"blame", "f.txt"}, {"stats"}, {"show"}, {"record", "HEAD"}} {
		sb.convo(repo, args...)
	}
}

// TestShowRunsOneGit: show --json asks git at most once, whatever the
// revisions, and not at all for one it reads from the files.
func TestShowRunsOneGit(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("one-git")
	sb.convo(repo, "install", "--cursor=none")
	sb.write(repo, "a.txt", "a\n")
	sb.commit(repo, "second", "a.txt")
	sb.convo(repo, "show") // drains the queue
	trace := filepath.Join(sb.root, "trace")
	for _, c := range []struct {
		args []string
		gits int
	}{{[]string{"--json"}, 0}, {[]string{"--json", "HEAD~1"}, 0}, {[]string{"--json", "HEAD~1..HEAD"}, 1}, {[]string{"--json", ":/second", "HEAD~1"}, 1}} {
		os.Remove(trace)
		if r := sb.runEnv(repo, sb.with("GIT_TRACE="+trace), "", append([]string{binPath, "show"}, c.args...)...); r.code != 0 {
			t.Fatalf("%q: %s", c.args, r.stderr)
		}
		b, _ := os.ReadFile(trace)
		if n := strings.Count(string(b), "trace: built-in: git "); n != c.gits {
			t.Errorf("%q ran git %d times, want %d:\n%s", c.args, n, c.gits, b)
		}
	}
}

// TestWrappedCommandsHelp: the commands that hand their arguments to git
// still answer -h and --help themselves.
func TestWrappedCommandsHelp(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("help")
	for _, name := range []string{"show", "log", "blame", "stats"} {
		for _, flag := range []string{"-h", "--help"} {
			if out := sb.convo(repo, name, flag); !strings.Contains(out, "git convo "+name) {
				t.Errorf("%s %s:\n%s", name, flag, out)
			}
		}
	}
}
