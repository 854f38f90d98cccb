package ingest

import (
	"os"
	"path/filepath"

	seam "github.com/git-convo/git-convo/pkg/agents/source" // the parameter source is a store source kind
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// Locator is repokey.Locate with the repository of each directory found
// once: an event can name 100,000 files, and walking up from each one costs
// several stat calls a file, seconds in all, inside an agent's hook timeout.
// The zero value is ready; one Locator serves one event.
type Locator struct {
	byDir map[string]located
}

type located struct {
	loc   gitx.Location
	key   string
	found bool
}

func (l *Locator) locate(abs string) (key, rel string, ok bool) {
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return repokey.Locate(abs) // a directory is its own start (rare: no cache)
	}
	dir := filepath.Dir(abs)
	r, hit := l.byDir[dir]
	if !hit {
		r.loc, r.found = gitx.FindRepoForPath(dir)
		if r.found {
			r.key = repokey.Of(r.loc.CommonDir)
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

// Touch resolves a path an agent sent (relative to base when not absolute)
// to the repository that holds it. A file outside every repository is kept
// as is, with no repository key: it is never matched.
func (l *Locator) Touch(path, base, source string) store.FileTouch {
	p := seam.NormalizeFSPath(path)
	if !filepath.IsAbs(p) && base != "" {
		p = filepath.Join(base, p)
	}
	repoKey, rel, ok := l.locate(p)
	if !ok {
		return store.FileTouch{Path: p, PathKey: p, Source: source}
	}
	return store.FileTouch{RepoKey: repoKey, Path: rel, PathKey: repokey.PathKey(rel), Source: source}
}

// Touch is Locator.Touch for a single path.
func Touch(path, base, source string) store.FileTouch {
	return (&Locator{}).Touch(path, base, source)
}
