package ingest

import (
	"os"
	"path/filepath"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// maxLocateBytes bounds the file a capture reads to locate an edit: a
// larger one keeps text evidence only, and the hook stays fast.
const maxLocateBytes = 4 << 20

// LocateWrites locates the event's edits in their files as they are on disk
// now, right after the edit (each file read once): the spans the capture
// keeps. Any agent's Writes work: the file path, the text after the edit,
// the lines written. A file that cannot be read gives no span (its lines
// stay text evidence), and neither does a failure of the locating itself.
func LocateWrites(a source.Activity) (out []position.Span) {
	defer func() {
		// Locating is extra evidence: whatever goes wrong, the event is
		// still recorded, with its text.
		if recover() != nil {
			out = nil
		}
	}()
	for file, writes := range a.Writes {
		p := source.NormalizeFSPath(file)
		if !filepath.IsAbs(p) && len(a.Roots) > 0 {
			p = filepath.Join(a.Roots[0], p)
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLocateBytes {
			continue
		}
		content, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if span, _ := position.Locate(file, string(content), writes); span != nil {
			out = append(out, *span)
		}
	}
	return out
}
