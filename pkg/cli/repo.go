package cli

import (
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/store/repokey"
)

// pathKey is how a repo-relative path is compared, the same in capture and record.
func pathKey(rel string) string { return repokey.PathKey(rel) }

// repoKey names a repository by its git common dir (repokey.Of).
func repoKey(commonDir string) string { return repokey.Of(commonDir) }

// locate finds the repository holding an absolute path without running git
// (repokey.Locate).
func locate(abs string) (key, rel string, ok bool) { return repokey.Locate(abs) }

// resolver lets the store adopt a database the prototype wrote.
func resolver() *store.Resolver { return repokey.Resolver() }
