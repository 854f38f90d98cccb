package cli

import (
	"os"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/repokey"
)

// locator is locate with the repository of each directory found once: an
// event can name 100,000 files, and walking up from each one costs several
// stat calls a file, seconds in all, inside Cursor's hook timeout.
type locator struct {
	byDir map[string]located
}

type located struct {
	loc   gitx.Location
	key   string
	found bool
}

func (l *locator) locate(abs string) (key, rel string, ok bool) {
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return locate(abs) // a directory is its own start (rare: no cache)
	}
	dir := filepath.Dir(abs)
	r, hit := l.byDir[dir]
	if !hit {
		r.loc, r.found = gitx.FindRepoForPath(dir)
		if r.found {
			r.key = repoKey(r.loc.CommonDir)
		}
		if l.byDir == nil {
			l.byDir = map[string]located{}
		}
		l.byDir[dir] = r
	}
	if !r.found {
		return "", "", false
	}
	return repokey.In(r.loc, r.key, abs)
}
