package cli

import "github.com/git-convo/git-convo/pkg/app"

// pathKey is how a repo-relative path is compared, the same in capture and record.
func pathKey(rel string) string { return app.PathKey(rel) }

// repoKey names a repository by its git common dir (app.RepoKey).
func repoKey(commonDir string) string { return app.RepoKey(commonDir) }

// locate finds the repository holding an absolute path without running git
// (app.Locate).
func locate(abs string) (key, rel string, ok bool) { return app.Locate(abs) }
