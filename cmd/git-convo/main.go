// Command git-convo is a git extension that links commits to the AI
// conversations that produced them. Run as `git convo <command>`.
package main

import (
	"os"

	"github.com/git-convo/git-convo/pkg/cli"
)

func main() {
	os.Exit(cli.Run(os.Args, cli.SystemEnv()))
}
