package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rawCommit writes a commit object as given (odd idents, zones, headers)
// and returns its hash.
func (r *testRepo) rawCommit(body string) string {
	r.t.Helper()
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin")
	cmd.Dir = r.dir
	cmd.Stdin = strings.NewReader(body)
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("hash-object: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// commitFile commits with the message read verbatim from a file.
func (r *testRepo) commitFile(msg string, args ...string) string {
	r.t.Helper()
	p := filepath.Join(r.t.TempDir(), "msg")
	if err := os.WriteFile(p, []byte(msg), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.at(append([]string{"commit", "-q", "--allow-empty", "--allow-empty-message", "--cleanup=verbatim", "-F", p}, args...)...)
	return r.git("rev-parse", "HEAD")
}

// showRepo is a history of commits git show prints in every way the
// in-process header must match, and the commits it must leave to git.
func showRepo(t *testing.T) (r *testRepo, plain, odd map[string]string) {
	r = newTestRepo(t)
	plain, odd = map[string]string{}, map[string]string{}
	r.write("f", "1")
	plain["root"] = r.commit("root commit")
	plain["multi-line"] = r.commitFile("\n\n  \nsubject\tafter tab\nsecond line of subject  \n\n\tbody\tindented\n" +
		"12345678\tat eight\n1234567\tat seven\n\n\n\nlast  \t\n\n \n")
	plain["no newline"] = r.commitFile("no trailing newline")
	plain["empty message"] = r.commitFile("")
	plain["blank message"] = r.commitFile("\n \n\t\n")
	plain["crlf"] = r.commitFile("crlf subject\r\n\r\nbody\r\n")
	plain["latin1 bytes, no header"] = r.commitFile("caf\xe9\n\nna\xefve\n")
	plain["utf-8 then tab"] = r.commitFile("tab\tthen café\n")
	plain["vertical tab and nbsp"] = r.commitFile("\v\nsubject\n\u00a0\nbody\f\n")
	plain["control characters"] = r.commitFile("bell\a and \x1b[31mescape\x1b[m\n")
	plain["utf-8 encoding header"] = r.commitFile("utf-8 declared é\n", "--no-verify")
	r.git("config", "i18n.commitEncoding", "utf8")
	plain["utf8 header"] = r.commitFile("declared utf8\n")
	r.git("config", "--unset", "i18n.commitEncoding")
	for _, tz := range []string{"+0530", "-0800", "-0000", "+1400", "-1200"} {
		r.at("commit", "-q", "--allow-empty", "-m", "zone "+tz, "--date=1700000000 "+tz)
		plain["zone "+tz] = r.git("rev-parse", "HEAD")
	}
	base := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "side", "HEAD~2")
	r.commit("side")
	r.git("checkout", "-q", "main")
	r.at("merge", "-q", "--no-ff", "--no-edit", "side")
	plain["merge"] = r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "third", base)
	third := r.commit("third")
	r.git("checkout", "-q", "-b", "fourth", base)
	fourth := r.commit("fourth")
	r.git("checkout", "-q", "main")
	r.at("merge", "-q", "--no-edit", "-s", "ours", third, fourth)
	plain["octopus"] = r.git("rev-parse", "HEAD")
	tree := r.git("rev-parse", "HEAD^{tree}")
	head := "tree " + tree + "\nparent " + plain["root"] + "\n"
	plain["no name"] = r.rawCommit(head + "author <a@b> 1700000000 +0000\ncommitter C <c@d> 1700000000 +0000\n\nno name\n")
	plain["signed"] = r.rawCommit(head + "author A U Thor <a@b> 1700000000 +0100\ncommitter C <c@d> 1700000000 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n author fake <x@y> 1 +0000\n -----END PGP SIGNATURE-----\n\nsigned\n")
	plain["zone minutes"] = r.rawCommit(head + "author A <a@b> 1700000000 +0545\ncommitter C <c@d> 1 +0000\n\nnepal\n")
	plain["name with spaces"] = r.rawCommit(head + "author  Lead  Trail\t <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nspaces\n")
	odd["latin1 header"] = r.rawCommit(head + "author A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\nencoding ISO-8859-1\n\ncaf\xe9\n")
	odd["tab after non-ascii"] = r.rawCommit(head + "author A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\ncafé\tthen tab\n")
	odd["two >"] = r.rawCommit(head + "author A <a@b> x> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nodd ident\n")
	odd["no date"] = r.rawCommit(head + "author A <a@b>\ncommitter C <c@d> 1 +0000\n\nno date\n")
	odd["zone 99 minutes"] = r.rawCommit(head + "author A <a@b> 1700000000 +0099\ncommitter C <c@d> 1 +0000\n\nodd zone\n")
	odd["two authors"] = r.rawCommit(head + "author A <a@b> 1700000000 +0000\nauthor B <b@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\ntwo\n")
	odd["no author"] = r.rawCommit(head + "committer C <c@d> 1 +0000\n\nnone\n")
	return r, plain, odd
}

// TestShowInProcessMatchesGit: for every commit and form it takes,
// ShowInProcess prints git show's own record byte for byte and reads the
// fields show --json takes from git; it declines the rest.
func TestShowInProcessMatchesGit(t *testing.T) {
	ctx := context.Background()
	r, plain, odd := showRepo(t)
	// Decorations of every kind: tags light and annotated (and a tag of a
	// tag), remote names and a symbolic remote HEAD, the stash, a branch at
	// a tag, refs git does not decorate, packed and loose.
	r.git("tag", "light", plain["merge"])
	r.git("tag", "-a", "-m", "annotated", "v1", plain["octopus"])
	r.git("tag", "-a", "-m", "of a tag", "v1-again", "v1")
	r.git("update-ref", "refs/remotes/origin/main", plain["root"])
	r.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	r.git("update-ref", "refs/stash", plain["root"])
	r.git("update-ref", "refs/bisect/bad", plain["root"])
	r.git("update-ref", "refs/notes/other", plain["root"]) // refs/notes/commits: notes git shows, git's to print
	r.git("tag", "-a", "-m", "packed", "packed-tag", plain["crlf"])
	r.git("branch", "at-root", plain["root"])
	r.git("pack-refs", "--all")
	r.git("tag", "-a", "-m", "loose", "loose-tag", plain["root"])
	r.git("update-ref", "refs/remotes/origin/at-tag", r.git("rev-parse", "v1"))
	r.git("update-ref", "refs/tags/light", plain["merge"]) // loose over packed
	r.git("config", "branch.main.remote", "origin")
	r.git("config", "branch.main.merge", "refs/heads/main")
	repo, ok := Discover(r.dir, os.Getenv)
	if !ok {
		t.Fatal("Discover declined")
	}
	settings, ok := LoadSettingsInProcess(r.dir, os.Getenv)
	if !ok {
		t.Fatal("settings need git")
	}
	git := r.open()
	decorated := map[string]bool{} // the decorated header lines seen
	check := func(t *testing.T, rev string) {
		t.Helper()
		var args []string
		if rev != "" {
			args = []string{rev}
		}
		var c *Commit
		for _, terminal := range []bool{false, true} { // on a terminal git decorates
			rec, cc, ok := repo.ShowInProcess(rev, settings, terminal, os.Getenv)
			if !ok {
				t.Fatalf("%s: declined", rev)
			}
			want, err := git.ShowHeaders(ctx, args, terminal, false)
			if err != nil || len(want) != 1 {
				t.Fatalf("git: %v %d", err, len(want))
			}
			if rec.Hash != want[0].Hash || rec.Text != want[0].Text {
				t.Errorf("%s, terminal %v:\n%q\ngit\n%q", rev, terminal, rec.Text, want[0].Text)
			}
			if first, _, _ := strings.Cut(rec.Text, "\n"); strings.Contains(first, "(") {
				decorated[first] = true
			}
			c = cc
		}
		fields, err := git.LogCommitsShow(ctx, args)
		if err != nil || len(fields) != 1 {
			t.Fatalf("git: %v", err)
		}
		w := fields[0]
		if c.Hash != w.Hash || c.AuthorName != w.AuthorName || c.AuthorEmail != w.AuthorEmail || c.Subject != w.Subject ||
			!c.AuthorTime.Equal(w.AuthorTime) || c.AuthorTime.Format("-07:00") != w.AuthorTime.Format("-07:00") ||
			strings.Join(c.Parents, " ") != strings.Join(w.Parents, " ") {
			t.Errorf("%s fields: %+v\ngit %+v", rev, *c, w)
		}
	}
	for name, h := range plain {
		t.Run(name, func(t *testing.T) { check(t, h) })
	}
	for _, rev := range []string{"", "HEAD", "@", "HEAD~1", "HEAD^2", "HEAD^3", "@~2", "main", "side", "light", "v1^{commit}",
		"v1~1", "origin/main", "refs/heads/third", "third^0"} {
		t.Run("form "+rev, func(t *testing.T) { check(t, rev) })
	}
	for name, h := range odd {
		if _, _, ok := repo.ShowInProcess(h, settings, false, os.Getenv); ok {
			t.Errorf("%s: printed in process; git should", name)
		}
	}
	r.write("side", "a file named like a branch")
	for _, rev := range []string{"v1", plain["root"][:12], ":/zone", "HEAD:f", "main@{u}", "@{1}", "HEAD~1..HEAD", "nope", "side", "-1"} {
		if rec, _, ok := repo.ShowInProcess(rev, settings, false, os.Getenv); ok {
			t.Errorf("%s: printed %q in process; git should", rev, rec.Text)
		}
	}
	// HEAD detached at a commit with decorations, and HEAD's branch elsewhere.
	r.git("checkout", "-q", "--detach", plain["root"])
	check(t, "")
	check(t, plain["root"])
	r.git("checkout", "-q", "at-root")
	check(t, "")
	r.git("checkout", "-q", "main")
	check(t, plain["root"])
	if len(decorated) < 6 {
		t.Errorf("only %d decorated lines: %v", len(decorated), decorated)
	}
}

// TestShowInProcessDeclines: every setting and repository state that changes
// git show's header sends show to git.
func TestShowInProcessDeclines(t *testing.T) {
	r := newTestRepo(t)
	r.write("f", "1")
	r.commit("first")
	r.commit("second")
	repo, _ := Discover(r.dir, os.Getenv)
	inProcess := func(terminal bool, getenv func(string) string) bool {
		s, ok := LoadSettingsInProcess(r.dir, getenv)
		if !ok {
			return false
		}
		_, _, ok = repo.ShowInProcess("HEAD", s, terminal, getenv)
		return ok
	}
	if !inProcess(false, os.Getenv) {
		t.Fatal("a plain repository declined")
	}
	for _, c := range []struct {
		name       string
		set, unset func()
		terminal   bool
		wantOK     bool
	}{
		{"log.date", func() { r.git("config", "log.date", "iso") }, func() { r.git("config", "--unset", "log.date") }, false, false},
		{"log.decorate full", func() { r.git("config", "log.decorate", "full") }, func() { r.git("config", "--unset", "log.decorate") }, false, false},
		{"log.excludeDecoration", func() { r.git("config", "log.excludeDecoration", "refs/tags/") }, func() { r.git("config", "--unset", "log.excludeDecoration") }, true, false},
		{"log.decorate short", func() { r.git("config", "log.decorate", "short") }, func() { r.git("config", "--unset", "log.decorate") }, false, true},
		{"log.decorate off on a terminal", func() { r.git("config", "log.decorate", "false") }, func() { r.git("config", "--unset", "log.decorate") }, true, true},
		{"log.abbrevCommit", func() { r.git("config", "log.abbrevCommit", "true") }, func() { r.git("config", "--unset", "log.abbrevCommit") }, false, false},
		{"i18n.logOutputEncoding", func() { r.git("config", "i18n.logOutputEncoding", "ISO-8859-1") }, func() { r.git("config", "--unset", "i18n.logOutputEncoding") }, false, false},
		{"i18n.logOutputEncoding utf-8", func() { r.git("config", "i18n.logOutputEncoding", "UTF-8") }, func() { r.git("config", "--unset", "i18n.logOutputEncoding") }, false, true},
		{"mailmap.file", func() { r.git("config", "mailmap.file", "/dev/null") }, func() { r.git("config", "--unset", "mailmap.file") }, false, false},
		{".mailmap", func() { r.write(".mailmap", "A <a@b>\n") }, func() { os.Remove(filepath.Join(r.dir, ".mailmap")) }, false, false},
		{".mailmap with log.mailmap off", func() { r.write(".mailmap", "A <a@b>\n"); r.git("config", "log.mailmap", "false") },
			func() { os.Remove(filepath.Join(r.dir, ".mailmap")); r.git("config", "--unset", "log.mailmap") }, false, true},
		{"replace ref", func() { r.git("replace", "HEAD", "HEAD~1") }, func() { r.git("replace", "-d", "HEAD") }, false, false},
		{"shallow", func() { r.write(".git/shallow", r.git("rev-parse", "HEAD~1")+"\n") }, func() { os.Remove(filepath.Join(r.dir, ".git", "shallow")) }, false, false},
		{"grafts", func() { r.write(".git/info/grafts", r.git("rev-parse", "HEAD")+"\n") }, func() { os.Remove(filepath.Join(r.dir, ".git", "info", "grafts")) }, false, false},
		{"terminal", func() {}, func() {}, true, true},
	} {
		c.set()
		if got := inProcess(c.terminal, os.Getenv); got != c.wantOK {
			t.Errorf("%s: in process %v, want %v", c.name, got, c.wantOK)
		}
		c.unset()
	}
	for _, kv := range [][2]string{{"GIT_PAGER_IN_USE", "true"}, {"GIT_CONFIG_PARAMETERS", "'log.date'='iso'"}, {"GIT_DIR", ".git"}} {
		getenv := func(k string) string {
			if k == kv[0] {
				return kv[1]
			}
			return os.Getenv(k)
		}
		if repo, ok := Discover(r.dir, getenv); ok {
			if s, ok := LoadSettingsInProcess(r.dir, getenv); ok {
				if _, _, ok := repo.ShowInProcess("HEAD", s, false, getenv); ok {
					t.Errorf("%s set: printed in process", kv[0])
				}
			}
		}
	}
}
