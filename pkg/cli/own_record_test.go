package cli

import (
	"strings"
	"testing"
)

// TestUnlinkAfterPushReadsLocal: A shares a commit linked to X and Y and
// pushes its note; then A unlinks Y. Until A pushes again, the tracking
// ref still holds A's older record naming Y; A's own reads must take A's
// record from its live ref (this clone is the authority on its own
// records), so show, log and blame no longer name Y at once.
func TestUnlinkAfterPushReadsLocal(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	a.convo(a.dir, "share", "on")
	const x, y = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"
	a.conversation(t, x, "X does limits", "s", "p", "limiter.go", "package limiter\n\nfunc Allow(client string) bool {\n\treturn bucket(client).take()\n}\n")
	a.conversation(t, y, "Y does logs", "s", "p", "logs.go", "package logs\n\nfunc Write(line string) error {\n\treturn sink.append(line)\n}\n")
	c := a.commit(a.dir, "limits and logs", "limiter.go", "logs.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	a.convo(a.dir, "fetch")
	if ids := showIDs(a.showJSON(a.dir, c)); !strings.Contains(ids, y) {
		t.Fatalf("before unlink: %s", ids)
	}
	a.convo(a.dir, "unlink", y, c)
	if ids := showIDs(a.showJSON(a.dir, c)); strings.Contains(ids, y) {
		t.Errorf("A's show after unlink, before A pushes again, names Y: %s", ids)
	}
	if out := a.convo(a.dir, "log", "-n", "1"); strings.Contains(out, "Y does logs") {
		t.Errorf("A's log after unlink names Y:\n%s", out)
	}
	if out := a.convo(a.dir, "blame", "logs.go"); strings.Contains(out, "Y does logs") {
		t.Errorf("A's blame after unlink names Y:\n%s", out)
	}
	// A teammate pushes notes of their own, and A runs a plain git fetch:
	// the tracking ref moves past what A merged, with A's older record on
	// it still. A's reads take A's records from the live ref alone, and B's
	// from the tracking ref (review).
	const z = "cccccccc-3333-4333-8333-333333333333"
	b := cloneAs(t, bare, "b")
	b.convo(b.dir, "share", "on")
	b.convo(b.dir, "fetch")
	b.conversation(t, z, "Z does metrics", "s", "p", "metrics.go", "package metrics\n\nfunc Count(name string) int {\n\treturn registry.inc(name)\n}\n")
	m := b.commit(b.dir, "metrics", "metrics.go")
	b.run(b.dir, "git", "push", "-q", "origin", "main")
	b.convo(b.dir, "push")
	a.run(a.dir, "git", "pull", "-q", "--ff-only")
	if ids := showIDs(a.showJSON(a.dir, c)); strings.Contains(ids, y) || !strings.Contains(ids, x) {
		t.Errorf("A's show after a teammate's push and a plain git pull: %s (Y unlinked, X linked)", ids)
	}
	if out := a.convo(a.dir, "blame", "logs.go"); strings.Contains(out, "Y does logs") {
		t.Errorf("A's blame after a plain git pull names Y again:\n%s", out)
	}
	out := a.convo(a.dir, "log", "-n", "2")
	if strings.Contains(out, "Y does logs") || !strings.Contains(out, "X does limits") || !strings.Contains(out, "Z does metrics") {
		t.Errorf("A's log after a plain git pull (Y unlinked; X and B's Z shown):\n%s", out)
	}
	if ids := showIDs(a.showJSON(a.dir, m)); !strings.Contains(ids, z) {
		t.Errorf("A's show of B's commit, its note on the tracking ref only: %s", ids)
	}
}

func showIDs(s showJSON) string {
	var ids []string
	for _, c := range s.Conversations {
		ids = append(ids, c.ID)
	}
	return strings.Join(ids, " ")
}
