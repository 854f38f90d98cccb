package interop

import (
	"context"
	"strings"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/interop/gitai"
	"github.com/git-convo/git-convo/pkg/notes"
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
	_, err = run("fetch", "--quiet", "--no-write-fetch-head", remote, spec)
	return true, err
}
