package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/notes"
)

// A hostile teammate's note names its agent with escape sequences: show,
// log and conversations print the name escaped.
func TestSharedAgentNameIsEscaped(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	a.conversation(t, "conv-agent", "Hostile agent name", "s", "p", "e.go", "package e\n\nvar E = 1\n")
	c := a.commit(a.dir, "e", "e.go")
	note := a.noteText(notes.Ref, c)
	name, _ := json.Marshal("x" + evil)
	hostile := strings.Replace(note, `"agent":"cursor"`, `"agent":`+string(name), 1)
	if hostile == note {
		t.Fatalf("no agent in the note to replace:\n%s", note)
	}
	a.runEnv(a.dir, a.env, hostile, "git", "notes", "--ref="+notes.Ref, "add", "-f", "-F", "-", c)
	a.run(a.dir, "git", "push", "-q", "--no-verify", "origin", "main", "+"+notes.Ref+":"+notes.Ref)
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	for _, args := range [][]string{{"show", c}, {"log", "-n", "2"}, {"conversations"}} {
		r := b.runEnv(b.dir, b.with("GIT_PAGER=", "GIT_CONFIG_PARAMETERS='core.pager'='cat'"), "", append([]string{"git", "convo"}, args...)...)
		if rawControl(r.stdout) || rawControl(r.stderr) || !strings.Contains(r.stdout, `x\033]52`) {
			t.Errorf("%v: the agent's name is not shown escaped:\n%q\n%q", args, r.stdout, r.stderr)
		}
	}
}
