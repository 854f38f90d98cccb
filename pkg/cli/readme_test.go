package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
)

// TestReadmeCommandTable: every command has a row in README.md's command
// table, and the row names every option its --help lists (the read options
// every read command takes are described once, under the table; a few flags
// only hooks pass are left out).
func TestReadmeCommandTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skipf("README.md: %v", err)
	}
	var rows [][2]string // a row's first cell, and the whole row
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.SplitN(strings.ReplaceAll(line, `\|`, "/"), "|", 3)
		if len(cells) == 3 && strings.HasPrefix(line, "| `git convo ") {
			rows = append(rows, [2]string{cells[1], line})
		}
	}
	common := map[string]bool{"help": true, "json": true, "color": true, "no-color": true, "no-pager": true}
	internal := map[string]bool{"record hook": true, "record rewrite-type": true, "enrich delay": true}
	env := SystemEnv()
	env.Agents = builtin.Registry() // the agents' flags (install --cursor, --claude) are in the table too
	for _, cmd := range newApp(env).Commands {
		if cmd.Hidden {
			continue
		}
		var row string
		for _, r := range rows {
			for _, form := range []string{"git convo " + cmd.Name + " ", "git convo " + cmd.Name + "`", "`" + cmd.Name + " ", "`" + cmd.Name + "`"} {
				if strings.Contains(r[0], form) {
					row += r[1]
					break
				}
			}
		}
		if row == "" {
			t.Errorf("README's command table has no row for %s", cmd.Name)
			continue
		}
		for _, f := range cmd.Flags {
			if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
				continue
			}
			names := f.Names()
			if common[names[0]] || internal[cmd.Name+" "+names[0]] {
				continue
			}
			found := false
			for _, n := range names {
				dash := "--"
				if len(n) == 1 {
					dash = "-"
				}
				found = found || strings.Contains(row, dash+n)
			}
			if !found {
				t.Errorf("README's row for %s lacks %v (its --help lists it): %s", cmd.Name, names, row)
			}
		}
	}
}
