package cursor

import "github.com/git-convo/git-convo/pkg/agents/source"

// NormalizeFSPath is source.NormalizeFSPath, which the write path applies
// to every agent's paths, under the name Cursor's code has always used.
func NormalizeFSPath(p string) string { return source.NormalizeFSPath(p) }
