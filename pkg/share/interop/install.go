package interop

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// GitAIFetchRefspec brings a remote's git-ai notes into a tracking ref on
// each fetch, never into refs/notes/ai (git-ai's own, which a forced
// fetch would overwrite).
func GitAIFetchRefspec(remote string) string {
	return "+" + gitai.Ref + ":" + GitAITrackingRef(remote)
}

// SetupGitAI adds GitAIFetchRefspec to remote when the remote has
// refs/notes/ai (one git ls-remote), and fetches it once. It never adds a
// push refspec: git-convo never pushes another tool's ref. added says
// whether the refspec is (now) there; fetched is how many notes came.
func SetupGitAI(ctx context.Context, g notes.Git, remote string) (added bool, err error) {
	run := func(args ...string) (string, error) {
		b, err := gitx.Command(ctx, g.Dir, g.Env, args...).Output()
		return string(b), err
	}
	if remotes, err := g.Remotes(ctx); err != nil || !slices.Contains(remotes, remote) {
		return false, err // no such remote: nothing to ask
	}
	out, err := run("ls-remote", "--refs", remote, gitai.Ref)
	if err != nil || !strings.Contains(out, "\t"+gitai.Ref) {
		return false, err
	}
	spec := GitAIFetchRefspec(remote)
	have, _ := run("config", "--local", "--get-all", "remote."+remote+".fetch")
	for _, v := range strings.Split(have, "\n") {
		if v == spec {
			return true, nil
		}
	}
	if _, err := run("config", "--local", "--add", "remote."+remote+".fetch", spec); err != nil {
		return false, err
	}
	// Remembered, so that uninstall takes out this refspec and never one the
	// user wrote.
	if _, err := run("config", "--local", "--add", KeyGitAIFetch, remote); err != nil {
		return true, err
	}
	_, err = run("fetch", "--quiet", "--no-write-fetch-head", remote, spec)
	return true, err
}

// KeyGitAIFetch lists the remotes whose GitAIFetchRefspec install added
// (one value each): uninstall removes those and only those.
const KeyGitAIFetch = "convo.gitAIFetch"

// UnsetupGitAI takes out the fetch refspecs SetupGitAI added (KeyGitAIFetch
// names their remotes), never a refspec the user wrote: the same refspec
// written by hand before install was never recorded. It returns what it
// removed, as "<key> <value>". The fetched notes stay, as git-convo's own.
func UnsetupGitAI(ctx context.Context, g notes.Git) ([]string, error) {
	out, err := gitx.Command(ctx, g.Dir, g.Env, "config", "--local", "--get-all", KeyGitAIFetch).Output()
	if err != nil {
		return nil, nil // none added (exit 1), or no config to read
	}
	var removed []string
	var firstErr error
	for _, remote := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		key, spec := "remote."+remote+".fetch", GitAIFetchRefspec(remote)
		if remote == "" || slices.Contains(removed, key+" "+spec) {
			continue
		}
		// --unset, not --unset-all: the one value install added (should the
		// user have added the same line again since, theirs stays).
		cmd := gitx.Command(ctx, g.Dir, g.Env, "config", "--local", "--fixed-value", "--unset", key, spec)
		if b, err := cmd.CombinedOutput(); err == nil {
			removed = append(removed, key+" "+spec)
		} else if code := exitCodeOf(err); code == 5 {
			// The user wrote the same value again since: the equal values
			// become one, which stays as theirs.
			if b, err := gitx.Command(ctx, g.Dir, g.Env, "config", "--local", "--fixed-value", "--replace-all", key, spec, spec).CombinedOutput(); err == nil {
				removed = append(removed, key+" "+spec)
			} else if firstErr == nil {
				firstErr = fmt.Errorf("git config --replace-all %s: %v: %s", key, err, strings.TrimSpace(string(b)))
			}
		} else if code != 1 && firstErr == nil { // 1: already gone (removed by hand, or with the remote)
			firstErr = fmt.Errorf("git config --unset %s: %v: %s", key, err, strings.TrimSpace(string(b)))
		}
	}
	if _, err := gitx.Command(ctx, g.Dir, g.Env, "config", "--local", "--unset-all", KeyGitAIFetch).Output(); err == nil {
		removed = append(removed, KeyGitAIFetch)
	}
	return removed, firstErr
}

func exitCodeOf(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// KeyShareAlso is the git config key `git convo share on --also git-ai`
// sets: git-convo then also writes its attribution into refs/notes/ai.
const KeyShareAlso = "convo.shareAlso"

// WriteGitAI writes logs (commit -> authorship log) into refs/notes/ai, on
// commits that have no git-ai note: a note git-ai (or anyone) wrote is never
// replaced, nor a remote's copy (refs/notes/remotes/<remote>/ai) shadowed,
// as a note on refs/notes/ai would (CompareRefs). It returns how many it
// wrote. refs/notes/ai is never pushed.
func WriteGitAI(ctx context.Context, g notes.Git, logs map[string][]byte) (int, error) {
	if len(logs) == 0 {
		return 0, nil
	}
	have := map[string]bool{}
	for _, ref := range Refs(ctx, g) {
		if !IsGitAIRef(ref) {
			continue
		}
		if out, err := gitx.Command(ctx, g.Dir, g.Env, "ls-tree", "-r", "-z", "--full-tree", ref).Output(); err == nil {
			for entry := range strings.SplitSeq(string(out), "\x00") {
				if _, path, ok := strings.Cut(entry, "\t"); ok {
					have[strings.ReplaceAll(path, "/", "")] = true
				}
			}
		}
	}
	n := 0
	for commit, log := range logs {
		if have[commit] {
			continue
		}
		cmd := gitx.Command(ctx, g.Dir, g.Env, "notes", "--ref="+gitai.Ref, "add", "-F", "-", commit)
		cmd.Stdin = strings.NewReader(string(log))
		if out, err := cmd.CombinedOutput(); err != nil {
			return n, fmt.Errorf("git notes --ref=%s add %.12s: %v: %s", gitai.Ref, commit, err, strings.TrimSpace(string(out)))
		}
		n++
	}
	return n, nil
}

// SetShareAlso sets KeyShareAlso to value in the repository's config
// ("": unset).
func SetShareAlso(ctx context.Context, g notes.Git, value string) error {
	args := []string{"config", "--local", KeyShareAlso, value}
	if value == "" {
		args = []string{"config", "--local", "--unset-all", KeyShareAlso}
	}
	err := gitx.Command(ctx, g.Dir, g.Env, args...).Run()
	if value == "" && err != nil {
		return nil // not set: nothing to unset
	}
	return err
}
