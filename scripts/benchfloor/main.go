// Command benchfloor is the floor scripts/bench.sh measures git convo log
// and show against: the least any Go program linking go-sqlite3 must do to
// answer them. It starts, opens the links database ($GIT_CONVO_DB), runs the
// one git process git-convo runs for the command, with the same arguments,
// and copies git's output to stdout; nothing else (no links read, no
// formatting).
//
//	benchfloor log -n 1000
//	benchfloor show HEAD~5
package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"

	_ "github.com/mattn/go-sqlite3"
)

// gitArgs are the arguments git-convo gives git for cmd (see pkg/gitx:
// streamCommits for log, ShowHeaders for show), the user's last.
func gitArgs(cmd string, user []string) ([]string, error) {
	var args []string
	switch cmd {
	case "log":
		args = []string{"-c", "log.showSignature=false", "log", "-z", "--no-color",
			"--format=/%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00%x00%h%x00%x00"}
	case "show":
		args = []string{"show", "--no-patch", "-z", "--no-color", "--pretty=medium"}
	default:
		return nil, fmt.Errorf("usage: benchfloor log|show [git arguments]")
	}
	return append(args, user...), nil
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
	db, err := sql.Open("sqlite3", "file:"+os.Getenv("GIT_CONVO_DB")+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Ping(); err != nil { // sql.Open alone opens no file
		return err
	}
	git := exec.Command("git", ga...)
	git.Stdout, git.Stderr = os.Stdout, os.Stderr
	return git.Run()
}
