// Command git-convo is a git extension that links commits to the AI
// conversations that produced them. Run as `git convo <command>`.
package main

import (
	"os"

	"github.com/git-convo/git-convo/pkg/agents/builtin"
	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/cli"
)

// main wires: the agents (pkg/agents/builtin) into the process's
// environment, and the application (pkg/app) the commands call.
func main() {
	env := cli.SystemEnv()
	env.Agents = builtin.Registry()
	env.App = app.New(env.AppConfig())
	os.Exit(cli.Run(os.Args, env))
}
