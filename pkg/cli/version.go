package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// Stamped at link time by scripts/release.sh and the Homebrew formula:
//
//	-ldflags "-X github.com/git-convo/git-convo/pkg/cli.Version=0.2.0 -X github.com/git-convo/git-convo/pkg/cli.commit=<sha>"
//
// -X can only set package variables; nothing assigns them at run time.
var (
	// Version is git-convo's release version (also written into shared notes
	// and traces as the writer's version).
	Version = "0.1.0"
	commit  = ""
)

// BuildInfo is what `git convo version` reports: enough to reproduce a bug.
type BuildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Dirty     bool   `json:"dirty,omitempty"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
	// SchemaVersion is the links.sqlite schema this build writes.
	SchemaVersion int `json:"schemaVersion"`
}

// buildInfo describes this binary. A plain `go build` in a checkout has no
// stamped commit; Go's VCS stamp stands in for it.
func buildInfo() BuildInfo {
	bi := stampInfo()
	bi.SchemaVersion = app.SchemaVersion()
	return bi
}

// stampInfo is buildInfo without the schema version: what --version needs,
// cheap enough for every process (newApp builds it, and hooks start one per
// commit and per agent edit).
func stampInfo() BuildInfo {
	bi := BuildInfo{
		Version:   Version,
		Commit:    commit,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		bi = withVCS(bi, info.Settings)
	}
	return bi
}

// withVCS fills the commit from Go's build settings when the linker did not.
func withVCS(bi BuildInfo, settings []debug.BuildSetting) BuildInfo {
	if bi.Commit != "" {
		return bi
	}
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			bi.Commit = s.Value
		case "vcs.modified":
			bi.Dirty = s.Value == "true"
		}
	}
	return bi
}

// versionString is the --version line: version, commit, Go version.
func versionString() string {
	bi := stampInfo()
	v := bi.Version
	if bi.Commit != "" {
		v += " (" + gitx.ShortHash(bi.Commit) + ")"
	}
	return v + " " + bi.GoVersion
}

func writeBuildInfo(w io.Writer, bi BuildInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(bi)
	}
	c := bi.Commit
	if c == "" {
		c = "unknown"
	}
	if bi.Dirty {
		c += " (modified)"
	}
	_, err := fmt.Fprintf(w, "git-convo %s\ncommit           %s\ngo               %s\nplatform         %s\nlinks-db schema  %d\n",
		bi.Version, c, bi.GoVersion, bi.Platform, bi.SchemaVersion)
	return err
}

func versionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, commit, Go version, platform and links-database schema",
		Description: `Prints what a bug report needs: git-convo's version, the commit it was built from,
the Go version, the platform (os/arch) and the schema version of links.sqlite this build
writes. "git convo doctor" shows the same. "git convo --version" prints one line.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print it as JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("version takes no arguments")
			}
			return writeBuildInfo(env.Stdout, buildInfo(), c.Bool("json"))
		},
	}
}
