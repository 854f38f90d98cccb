// Package testshared finds ../shared (the real fixtures and the Agent Trace
// schema laid beside the repository for development and CI) for tests, from
// any package directory however deep, so that a test which needs it skips
// with a message on a clone with nothing beside it; and the stand-ins
// tests in several packages share (FakeGPG).
package testshared

import (
	"errors"
	"os"
	"path/filepath"
)

// NoSharedEnv hides ../shared when set to anything but "" or "0", so a run
// proves the suite passes on a clone with nothing beside it.
const NoSharedEnv = "GIT_CONVO_TEST_NO_SHARED"

// FixturesEnv names the fixtures directory when it is not ../shared/fixtures
// (a worktree whose ../shared is elsewhere); its parent is the shared folder.
const FixturesEnv = "GIT_CONVO_TEST_FIXTURES"

// Fixture returns parts below the shared fixtures folder, or false when it
// is absent or hidden by NoSharedEnv.
func Fixture(parts ...string) (string, bool) {
	if f := os.Getenv(FixturesEnv); f != "" {
		return existing(append([]string{f}, parts...))
	}
	return Path(append([]string{"fixtures"}, parts...)...)
}

// Path returns parts below the shared folder, or false when it is absent or
// hidden by NoSharedEnv.
func Path(parts ...string) (string, bool) {
	dir := ""
	if f := os.Getenv(FixturesEnv); f != "" {
		dir = filepath.Dir(filepath.Clean(f))
	} else {
		root, err := ModuleRoot()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(root, "..", "shared")
	}
	return existing(append([]string{dir}, parts...))
}

func existing(parts []string) (string, bool) {
	if v := os.Getenv(NoSharedEnv); v != "" && v != "0" {
		return "", false
	}
	p := filepath.Join(parts...)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// ModuleRoot walks up from the working directory (a package directory under
// go test) to the directory holding go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// FakeGPG is the path of a stand-in for gpg, for a repository's
// gpg.program: it signs anything (commit.gpgSign), and verifying prints
// gpg's lines and a patch of its own, as log.showSignature then shows them
// among git log's and git show's output.
func FakeGPG() (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "pkg", "util", "testshared", "testdata", "fakegpg"), nil
}
