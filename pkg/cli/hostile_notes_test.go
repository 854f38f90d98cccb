package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/app/prsummary"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// The hostile-notes set (issue 28): notes a teammate can push are claims,
// and no read command trusts their size, their ranges or their paths. Each
// command runs under a timeout, so a regression fails instead of hanging.

// runWithin runs git-convo in dir and fails the test when it runs past
// limit (it is killed).
func (sb *sandbox) runWithin(limit time.Duration, dir string, args ...string) result {
	sb.t.Helper()
	return sb.runBounded(limit, dir, binPath, args...) // not through git: the kill must reach it
}

// runWithinGit is runWithin for a git command (its hooks run git-convo,
// which the kill does not reach: the wait for its output is bounded too).
func (sb *sandbox) runWithinGit(limit time.Duration, dir string, args ...string) result {
	sb.t.Helper()
	return sb.runBounded(limit, dir, "git", args...)
}

func (sb *sandbox) runBounded(limit time.Duration, dir, bin string, args ...string) result {
	sb.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, sb.env
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		sb.t.Fatalf("%s %v: still running after %v (killed)", filepath.Base(bin), args, limit)
	}
	r := result{stdout: out.String(), stderr: errb.String(), peakRSS: -1}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		sb.t.Fatalf("%v: %v", args, err)
	}
	if cmd.ProcessState != nil {
		r.peakRSS = peakRSS(cmd.ProcessState)
	}
	return r
}

// pushRawNote has tm put text as the note of rev and push the notes ref, as
// any teammate with push access can, without git-convo.
func (tm teammate) pushRawNote(t *testing.T, rev, text string) {
	t.Helper()
	f := filepath.Join(tm.root, "raw-note")
	os.WriteFile(f, []byte(text), 0o600)
	tm.run(tm.dir, "git", "notes", "--ref="+notes.Ref, "add", "-f", "-F", f, rev)
	tm.run(tm.dir, "git", "push", "-q", "--no-verify", "origin", notes.Ref+":"+notes.Ref)
}

// TestHostileRangesAreClipped (issue 28, item 8): a note claiming lines
// 1..2,000,000,000 hung blame (over 20 s and 1 GB); ranges of ±9e18 gave
// stats negative totals and a path the commit never touched. Ranges are cut
// to the lines the commit added, and other paths dropped.
func TestHostileRangesAreClipped(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.write(a.dir, "limiter.go", "package limiter\n\nfunc Allow() bool {\n\treturn true\n}\n")
	c := a.commit(a.dir, "limiter", "limiter.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	conv := map[string]any{"url": "git-convo:conversation/evil", "contributor": map[string]any{"type": "ai"}}
	// The record names its commit, as a record must to be read as a claim on it.
	rec := map[string]any{"version": "0.1.0", "id": "x", "timestamp": "2026-01-01T00:00:00Z",
		"vcs": map[string]any{"type": "git", "revision": c},
		"files": []any{
			map[string]any{"path": "limiter.go", "conversations": []any{mergeMaps(conv, map[string]any{"ranges": []any{
				map[string]any{"start_line": 1, "end_line": 2000000000}}})}},
			map[string]any{"path": "../../etc/passwd", "conversations": []any{mergeMaps(conv, map[string]any{"ranges": []any{
				map[string]any{"start_line": -9000000000000000000, "end_line": 9000000000000000000},
				map[string]any{"start_line": 9000000000000000000, "end_line": -9000000000000000000}}})}},
		},
		"metadata": map[string]any{"dev.git-convo": map[string]any{"format": 1, "writer": "mallory",
			"conversations": map[string]any{"evil": map[string]any{"title": "evil", "confidence": 0.9}}}}}
	line, _ := json.Marshal(rec)
	a.pushRawNote(t, c, string(line)+"\n")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")

	blame := b.runWithin(time.Minute, b.dir, "blame", "limiter.go")
	if blame.code != 0 || strings.Count(blame.stdout, "\n") != 5 {
		t.Errorf("blame: exit %d\n%s%s", blame.code, blame.stdout, blame.stderr)
	}
	st := b.runWithin(time.Minute, b.dir, "stats", "--json", c)
	var stats statsJSON
	if err := json.Unmarshal([]byte(st.stdout), &stats); err != nil {
		t.Fatalf("stats: %v\n%s%s", err, st.stdout, st.stderr)
	}
	if stats.Added != 4 || stats.Agent != 4 {
		t.Errorf("stats: %d added, %d by agents; want the commit's 4 non-blank lines", stats.Added, stats.Agent)
	}
	for _, f := range stats.ByFile {
		if f.Name != "limiter.go" || f.Added < 0 || f.Agent < 0 {
			t.Errorf("stats lists %+v", f)
		}
	}
	// pr asks the note for the lines the commit added only (it walked the
	// range, and ran out of time and memory).
	pr := b.runWithin(time.Minute, b.dir, "pr", c+"~1.."+c, "--json")
	var s prsummary.Summary
	if err := json.Unmarshal([]byte(pr.stdout), &s); err != nil || s.Headline.Added != 4 || s.Headline.Agent != 4 {
		t.Errorf("pr: %v %+v\n%s", err, s.Headline.Lines, pr.stderr)
	}
	tr := b.runWithin(time.Minute, b.dir, "trace", c)
	if strings.Contains(tr.stdout, "passwd") || strings.Contains(tr.stdout, "2000000000") {
		t.Errorf("trace repeats the claims:\n%s", tr.stdout)
	}
}

func mergeMaps(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// emptyCommits adds n empty commits on top of tm's main with one
// fast-import (no hook runs), and returns the new tip.
func (tm teammate) emptyCommits(t *testing.T, n int) string {
	t.Helper()
	head := strings.TrimSpace(tm.run(tm.dir, "git", "rev-parse", "HEAD"))
	var s strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 6\nempty\n", i, 1700000000+i)
		if i == 1 {
			fmt.Fprintf(&s, "from %s\n", head)
		} else {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
	}
	r := tm.runEnv(tm.dir, tm.env, s.String(), "git", "fast-import", "--quiet")
	if r.code != 0 {
		t.Fatalf("fast-import: %s", r.stderr)
	}
	return strings.TrimSpace(tm.run(tm.dir, "git", "rev-parse", "main"))
}

// TestHostileDeletionsCannotRemoveEveryonesNotes (issue 28, item 7): a teammate
// removed every note and pushed a fast-forward; git convo fetch took it,
// and git convo push restored only the last 100 commits' notes. Now every
// record this clone wrote that a merge dropped is written back, whatever
// its age, and fetch and share status warn of the deletion.
func TestHostileDeletionsCannotRemoveEveryonesNotes(t *testing.T) {
	base, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	m := cloneAs(t, bare, "m")
	a.convo(a.dir, "share", "on")
	a.conversation(t, "conv-old", "An old change", "old", "do it", "old.go", "package old\n")
	old := a.commit(a.dir, "old change", "old.go")
	a.emptyCommits(t, 101) // the linked commit is now past push's last 100
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	if !strings.Contains(refBlobs(t, base, bare, notes.Ref), "conv-old") {
		t.Fatal("the remote has no note of the linked commit")
	}
	b.run(b.dir, "git", "fetch", "-q")

	// Mallory deletes every note and pushes a fast-forward of the notes ref.
	m.run(m.dir, "git", "fetch", "-q", "origin", notes.Ref+":"+notes.Ref)
	m.run(m.dir, "git", "notes", "--ref="+notes.Ref, "remove", old)
	m.run(m.dir, "git", "push", "-q", "--no-verify", "origin", notes.Ref)
	if strings.Contains(m.run(m.dir, "git", "notes", "--ref="+notes.Ref, "list"), old) {
		t.Fatal("the note is still there")
	}

	// B fetches with plain git: share status warns.
	b.run(b.dir, "git", "fetch", "-q")
	if st := b.convo(b.dir, "share", "status"); !strings.Contains(st, "deleted 1 note") {
		t.Errorf("B's share status does not warn of the deletion:\n%s", st)
	}
	var st app.ShareStatus
	if err := json.Unmarshal([]byte(b.convo(b.dir, "share", "status", "--json")), &st); err != nil || st.FetchDeleted["origin"] != 1 {
		t.Errorf("B's share status --json: %+v %v", st.FetchDeleted, err)
	}

	// A fetches: a warning, and A's own record is written back.
	r := a.runEnv(a.dir, a.env, "", "git", "convo", "fetch")
	if r.code != 0 || !strings.Contains(r.stderr, "delete 1 note") {
		t.Errorf("A's fetch: exit %d, no warning:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(a.noteText(notes.Ref, old), "conv-old") {
		t.Fatalf("A's own note of %s was not written back after the merge", old)
	}
	a.convo(a.dir, "push")
	note := a.runEnv(a.dir, a.env, "", "git", "--git-dir="+bare, "notes", "--ref="+notes.Ref, "show", old)
	if !strings.Contains(note.stdout, "conv-old") {
		t.Errorf("after A's push, the remote still lacks the note of %s: %s", old, note.stderr)
	}
}

// TestHostileNotesSkippedAreCountedByDoctor (issue 28, item 9): what the bounds skip
// is counted where the user looks. A 9 MiB note and a note of 1,001
// records are pushed; show answers at once, and doctor names both.
func TestHostileNotesSkippedAreCountedByDoctor(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.write(a.dir, "x.txt", "x\n")
	big := a.commit(a.dir, "x", "x.txt")
	a.write(a.dir, "y.txt", "y\n")
	many := a.commit(a.dir, "y", "y.txt")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	a.pushRawNote(t, big, strings.Repeat(`{"files":[],"pad":"`+strings.Repeat("p", 1000)+"\"}\n", notes.MaxNoteBytes/1000+1))
	a.pushRawNote(t, many, strings.Repeat(`{"files":[]}`+"\n", notes.MaxNoteRecords+1))
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	for _, c := range []string{big, many} {
		if r := b.runWithin(time.Minute, b.dir, "show", "--no-pager", c); r.code != 0 {
			t.Errorf("show %s: %d %s", c, r.code, r.stderr)
		}
	}
	d := b.runWithin(time.Minute, b.dir, "doctor").stdout
	if !strings.Contains(d, "1 note(s) over 8 MiB") || !strings.Contains(d, "1 record(s) past the first 1000 of 1 note(s)") {
		t.Errorf("doctor does not count the skipped notes:\n%s", d)
	}
}
