package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorUnwritableDB: a links database whose directory cannot be created
// is a failure with its cause, not "nothing recorded yet"; and a repository
// installed with --cursor=none is not warned about Cursor's database.
func TestDoctorUnwritableDB(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	dbs := []string{filepath.Join(repo, "README.md", "links.sqlite")}
	if st, err := os.Stat("/proc/self"); err == nil && st.IsDir() {
		dbs = append(dbs, "/proc/nope/links.sqlite") // the reported case: not even root can create it
	}
	if os.Geteuid() != 0 { // root writes into read-only directories
		ro := filepath.Join(sb.root, "ro")
		os.MkdirAll(ro, 0o555)
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		dbs = append(dbs, filepath.Join(ro, "sub", "links.sqlite"), filepath.Join(ro, "links.sqlite"))
	}
	for _, db := range dbs {
		r := sb.runEnv(repo, sb.with("GIT_CONVO_DB="+db, "CURSOR_DB_PATH="+filepath.Join(sb.root, "no-cursor.vscdb")), "", "git", "convo", "doctor")
		if r.code != 1 || !strings.Contains(r.stdout, "FAIL links db") || strings.Contains(r.stdout, "nothing recorded yet") || !strings.Contains(r.stdout, "GIT_CONVO_DB") {
			t.Errorf("doctor with %s: exit %d\n%s", db, r.code, r.stdout)
		}
		if strings.Contains(r.stdout, "warn cursor db") || !strings.Contains(r.stdout, "ok   cursor db      not used, as chosen") {
			t.Errorf("doctor after --cursor=none warns about Cursor's database:\n%s", r.stdout)
		}
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor"); !strings.Contains(r.stdout, "ok   links db") {
		t.Errorf("doctor with a writable place: exit %d\n%s", r.code, r.stdout)
	}
}

// TestDoctorSharing: doctor shows whether sharing is on, the remote, the
// last push and fetch, and the last push error.
func TestDoctorSharing(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	if doc := a.convo(a.dir, "doctor"); !strings.Contains(doc, "ok   sharing        off for this repository") {
		t.Errorf("doctor, sharing off:\n%s", doc)
	}
	a.convo(a.dir, "share", "on")
	a.conversation(t, "c0ffee00-share-doctor", "Share doctor", "s", "p", "a.go", "package a\n")
	a.commit(a.dir, "a", "a.go")
	a.convo(a.dir, "push")
	a.convo(a.dir, "fetch")
	doc := a.convo(a.dir, "doctor")
	for _, want := range []string{"ok   sharing        on, to origin; 1 note(s)", "ok   last push      ", "ago (", "ok   last fetch     "} {
		if !strings.Contains(doc, want) {
			t.Errorf("doctor lacks %q:\n%s", want, doc)
		}
	}
	a.run(a.dir, "git", "remote", "set-url", "origin", filepath.Join(a.root, "gone.git"))
	if r := a.runEnv(a.dir, a.env, "", "git", "convo", "push"); r.code == 0 {
		t.Fatalf("push to a missing remote succeeded")
	}
	if doc := a.convo(a.dir, "doctor"); !strings.Contains(doc, "warn last push") || !strings.Contains(doc, "the last push failed: ") || !strings.Contains(doc, "git convo push") {
		t.Errorf("doctor after a failed push:\n%s", doc)
	}
	a.run(a.dir, "git", "remote", "rename", "origin", "upstream")
	if doc := a.convo(a.dir, "doctor"); !strings.Contains(doc, `there is no remote "origin"`) {
		t.Errorf("doctor with the share remote gone:\n%s", doc)
	}
}
