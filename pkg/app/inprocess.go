package app

import (
	"os"
	"time"

	"github.com/git-convo/git-convo/pkg/agents"
)

// InProcess is the configuration of a front end other than the CLI (the
// MCP server): the process's environment with everything in the
// foreground (GIT_CONVO_SYNC=1: the answer waits for the work, and no
// detached git-convo is started: Spawn is nil), nothing written to stderr
// (the MCP server's stdout and stderr belong to its client; problems go to
// the log), the agents given, and the clock of GIT_CONVO_NOW when set.
func InProcess(reg *agents.Registry, version string) Config {
	return Config{
		Getenv: func(k string) string {
			if k == "GIT_CONVO_SYNC" {
				return "1"
			}
			return os.Getenv(k)
		},
		Now:     Clock(os.Getenv("GIT_CONVO_NOW")),
		Agents:  reg,
		Version: version,
	}
}

// Clock is time.Now, or a fixed time when fixed holds one (RFC 3339):
// reproducible output for golden tests and bug reports.
func Clock(fixed string) func() time.Time {
	if t, err := time.Parse(time.RFC3339, fixed); err == nil {
		return func() time.Time { return t }
	}
	return time.Now
}
