// Command benchfloor is the floor scripts/bench.sh measures git convo log
// and show against: the least any Go program linking go-sqlite3 must do to
// answer them. It starts, opens the links database ($GIT_CONVO_DB) when
// there is one, runs the one git process git-convo runs for the command,
// with the same arguments and environment, and copies git's output to
// stdout; nothing else (no links read, nothing parsed or printed).
//
//	benchfloor log -n 1000
//	benchfloor log --notes=refs/notes/convo -n 1000   (git-convo reading shared notes)
//	benchfloor show HEAD~5
package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"strings"

	_ "github.com/mattn/go-sqlite3"

	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

// gitArgs are the arguments git-convo gives git for cmd (pkg/git/gitx: LogArgs
// for log's text output, ShowHeaders for show), the user's last. For log,
// leading --notes=<ref> arguments are git-convo's notes refs: its format
// then asks for the notes too (%N). TestFloorIsGitConvos checks these
// against pkg/git/gitx.
func gitArgs(cmd string, user []string) ([]string, error) {
	switch cmd {
	case "log":
		var notes []string
		for len(user) > 0 && strings.HasPrefix(user[0], "--notes=") {
			notes, user = append(notes, user[0]), user[1:]
		}
		format := "/%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00%x00%x00"
		if len(notes) > 0 {
			format += "%N"
		}
		format += "%x00%x00%x00" // and the empty mark and source fields
		args := append([]string{"-c", "log.showSignature=false", "log"}, notes...)
		args = append(args, "-z", "--no-color", "--format="+format)
		return append(args, user...), nil
	case "show":
		return append([]string{"show", "--no-patch", "-z", "--no-color", "--pretty=medium"}, user...), nil
	}
	return nil, fmt.Errorf("usage: benchfloor log|show [git arguments]")
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchfloor:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: benchfloor log|show [git arguments]")
	}
	ga, err := gitArgs(args[0], args[1:])
	if err != nil {
		return err
	}
	// With no database (a teammate reading shared notes) there is nothing
	// to open.
	if p := os.Getenv("GIT_CONVO_DB"); p != "" {
		if _, err := os.Stat(p); err == nil {
			db, err := sql.Open("sqlite3", sqliteuri.ReadOnly(p, 0))
			if err != nil {
				return err
			}
			defer db.Close()
			if err := db.Ping(); err != nil { // sql.Open alone opens no file
				return err
			}
		}
	}
	git := exec.Command("git", ga...)
	git.Stdout, git.Stderr = os.Stdout, os.Stderr
	if args[0] == "log" {
		// As git-convo runs it: git's output buffered, not flushed per
		// commit.
		git.Env = append(os.Environ(), "GIT_FLUSH=0")
	}
	return git.Run()
}
