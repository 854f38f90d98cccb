package cli

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/store"
)

func (sb *sandbox) doctorChecks(repo string) map[string][]check {
	sb.t.Helper()
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor", "--json")
	var rep struct {
		Checks []check `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		sb.t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
	}
	out := map[string][]check{}
	for _, c := range rep.Checks {
		out[c.Name] = append(out[c.Name], c)
	}
	return out
}

// TestSpoolEntryThatCannotSucceed: the DB is broken, a commit is spooled,
// the commit is amended away and collected, the DB is repaired. The spooled
// commit is set aside instead of blocking the prompts queued behind it, and
// doctor says where it is and how to retry it.
func TestSpoolEntryThatCannotSucceed(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))
	good, _ := sb.corruptDB()
	sb.write(repo, "a.go", "package a\n")
	sb.run(repo, "git", "add", "a.go")
	sb.run(repo, "git", "commit", "-q", "-m", "spooled")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "b.go")) // queued behind the commit
	sb.run(repo, "git", "commit", "-q", "--amend", "-m", "amended", "--no-verify")
	sb.run(repo, "git", "reflog", "expire", "--expire=now", "--all")
	sb.run(repo, "git", "gc", "-q", "--prune=now")
	os.WriteFile(sb.linksDB, good, 0o600)

	sb.captureOK(repo, sb.env, map[string]any{"conversation_id": "conv-2", "hook_event_name": "sessionStart"})
	if files := sb.filesOf(repo, "conv-1"); strings.Join(files, ",") != "a.go,b.go" {
		t.Errorf("the prompt queued behind the lost commit: %v", files)
	}
	checks := sb.doctorChecks(repo)
	var aside *check
	for i, c := range checks["spool"] {
		if strings.Contains(c.Detail, "set aside") {
			aside = &checks["spool"][i]
		}
	}
	if aside == nil || !strings.Contains(aside.Fix, "--replay-spool") {
		t.Fatalf("doctor's spool checks: %+v", checks["spool"])
	}
	if links := checks["links db"]; len(links) != 1 || !links[0].OK {
		t.Errorf("links db: %+v", links)
	}
	out := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor", "--replay-spool").stdout
	if !strings.Contains(out, "put back 1 set-aside event(s); replayed 0; 0 still waiting, 1 set aside") {
		t.Errorf("doctor --replay-spool:\n%s", out)
	}
}

// TestReadOnlySpellRecovers: a capture while links.sqlite is 0400 leaves a
// 0400 -shm; once links.sqlite is writable again, the next hook gives the
// -shm its mode back instead of spooling for ever.
func TestReadOnlySpellRecovers(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Chmod(sb.linksDB+suffix, 0o400)
	}
	os.Chmod(sb.linksDB, 0o600)
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "b.go"))
	for _, suffix := range []string{"-wal", "-shm"} {
		if fi, err := os.Stat(sb.linksDB + suffix); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("links.sqlite%s is still %v", suffix, fi.Mode().Perm())
		}
	}
	if files := sb.filesOf(repo, "conv-1"); strings.Join(files, ",") != "a.go,b.go" {
		t.Errorf("after the read-only spell: %v", files)
	}
}

// TestDoctorTellsTheTruth: one piece of advice for a newer schema, a
// different binary named as such, and an error the full disk kept out of
// the log still reported.
func TestDoctorTellsTheTruth(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	sb.convo(repo, "install", "--cursor=none")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))

	// The hook names another git-convo binary that exists.
	other := filepath.Join(sb.root, "other-bin", "git-convo")
	os.MkdirAll(filepath.Dir(other), 0o755)
	bin, _ := os.ReadFile(binPath)
	os.WriteFile(other, bin, 0o755)
	hook := filepath.Join(repo, ".git", "hooks", "post-commit")
	b, _ := os.ReadFile(hook)
	named := githooksNamed(t, string(b))
	os.WriteFile(hook, []byte(strings.ReplaceAll(string(b), named, other)), 0o755)
	checks := sb.doctorChecks(repo)
	pc := checks["post-commit"]
	if len(pc) != 1 || strings.Contains(pc[0].Detail, "older") || !strings.Contains(pc[0].Detail, other) || !strings.Contains(pc[0].Detail+pc[0].Fix, filepath.Dir(binPath)) {
		t.Errorf("post-commit naming another binary: %+v", pc)
	}

	// The log cannot be written: the error goes to the last-error record.
	logPath := filepath.Join(filepath.Dir(sb.linksDB), "git-convo.log")
	os.Remove(logPath)
	os.Mkdir(logPath, 0o700)
	r := sb.captureOK(repo, sb.env, map[string]any{"hook_event_name": "stop"}) // no conversation id: an error
	if !strings.Contains(r.stderr, "no conversation id") {
		t.Fatalf("capture: %q", r.stderr)
	}
	if lost := sb.doctorChecks(repo)["lost errors"]; len(lost) != 1 || lost[0].OK || !strings.Contains(lost[0].Detail, "no conversation id") {
		t.Errorf("lost errors: %+v", lost)
	}
	os.Remove(logPath)

	// A newer schema: upgrade, never "move it aside".
	db, _ := sql.Open("sqlite3", sb.linksDB)
	db.Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1))
	db.Close()
	links := sb.doctorChecks(repo)["links db"]
	if len(links) != 1 || !strings.Contains(links[0].Fix, "upgrade") || strings.Contains(links[0].Fix, "aside") {
		t.Errorf("links db with a newer schema: %+v", links)
	}
}

// githooksNamed is the binary path a hook's block names.
func githooksNamed(t *testing.T, hook string) string {
	for _, line := range strings.Split(hook, "\n") {
		if _, v, ok := strings.Cut(line, "_convo_bin='"); ok {
			return strings.TrimSuffix(strings.TrimSpace(v), "'")
		}
	}
	t.Fatalf("no _convo_bin in:\n%s", hook)
	return ""
}

// TestDoctorReadOnlyDirectory: when the directory of links.sqlite is
// read-only, doctor's fix is chmod on the directory, not on the file.
func TestDoctorReadOnlyDirectory(t *testing.T) {
	skipOnWindows(t)
	if os.Geteuid() == 0 {
		t.Skip("root writes through file modes")
	}
	sb := newSandbox(t)
	repo := sb.repo("project")
	dataDir := filepath.Join(sb.root, "data")
	sb.env = sb.with("GIT_CONVO_DB=" + filepath.Join(dataDir, "links.sqlite"))
	sb.linksDB = filepath.Join(dataDir, "links.sqlite")
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "a.go"))
	os.Chmod(dataDir, 0o500)
	t.Cleanup(func() { os.Chmod(dataDir, 0o700) })
	sb.captureOK(repo, sb.env, editPayload(repo, "conv-1", "b.go"))
	links := sb.doctorChecks(repo)["links db"]
	if len(links) != 1 || links[0].OK || !strings.Contains(links[0].Fix, "chmod u+w "+dataDir) {
		t.Errorf("links db with a read-only directory: %+v", links)
	}
}
