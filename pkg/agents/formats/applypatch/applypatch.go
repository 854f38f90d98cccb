// Package applypatch reads the patch format of OpenAI's apply_patch tool,
// which Codex and VS Code agent mode send as a tool's input:
//
//	*** Begin Patch
//	*** Add File: path        (then "+" lines: the new file)
//	*** Update File: path     (optionally "*** Move to: path", then hunks)
//	@@ [context header]
//	 context line
//	-removed line
//	+added line
//	*** Delete File: path
//	*** End Patch
//
// It is the agent's own record of the lines it wrote, for line evidence.
// Parse never fails: what it cannot read it skips, and a patch cut short
// gives the files and lines read so far.
package applypatch

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// The operations of a patch on a file.
const (
	Add    = "add"
	Update = "update"
	Delete = "delete"
)

// File is what a patch does to one file.
type File struct {
	Path   string
	Op     string // Add, Update or Delete
	MoveTo string // an update's new path, when it renames the file
	Hunks  []Hunk // an Add is one hunk with New only
}

// Hunk is one change: the lines it replaces (context and removed lines)
// and the lines it leaves (context and added lines), in order.
type Hunk struct {
	Old, New []string
	Added    []string // the "+" lines alone
}

// Target is the file's path after the patch.
func (f File) Target() string {
	if f.MoveTo != "" {
		return f.MoveTo
	}
	return f.Path
}

// Parse reads a patch. Lines outside a file's section, and a missing Begin
// or End, are ignored.
func Parse(patch string) []File {
	var files []File
	var cur *File
	var h *Hunk
	closeHunk := func() {
		if cur != nil && h != nil && (len(h.Old) > 0 || len(h.New) > 0) {
			cur.Hunks = append(cur.Hunks, *h)
		}
		h = nil
	}
	start := func(op, path string) {
		closeHunk()
		files = append(files, File{Path: strings.TrimSpace(path), Op: op})
		cur = &files[len(files)-1]
		if cur.Path == "" {
			files = files[:len(files)-1]
			cur = nil
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "*** "); ok {
			switch {
			case strings.HasPrefix(rest, "Add File: "):
				start(Add, strings.TrimPrefix(rest, "Add File: "))
				continue
			case strings.HasPrefix(rest, "Update File: "):
				start(Update, strings.TrimPrefix(rest, "Update File: "))
				continue
			case strings.HasPrefix(rest, "Delete File: "):
				start(Delete, strings.TrimPrefix(rest, "Delete File: "))
				continue
			case strings.HasPrefix(rest, "Move to: "):
				if cur != nil {
					cur.MoveTo = strings.TrimSpace(strings.TrimPrefix(rest, "Move to: "))
				}
				continue
			case rest == "End Patch" || rest == "Begin Patch" || rest == "End of File":
				if rest != "End of File" {
					closeHunk()
					cur = nil
				}
				continue
			}
		}
		if cur == nil || cur.Op == Delete {
			continue
		}
		if strings.HasPrefix(line, "@@") {
			closeHunk()
			continue
		}
		if h == nil {
			h = &Hunk{}
		}
		switch {
		case strings.HasPrefix(line, "+"):
			h.New = append(h.New, line[1:])
			h.Added = append(h.Added, line[1:])
		case strings.HasPrefix(line, "-") && cur.Op == Update:
			h.Old = append(h.Old, line[1:])
		case strings.HasPrefix(line, " ") && cur.Op == Update:
			h.Old = append(h.Old, line[1:])
			h.New = append(h.New, line[1:])
		case line == "" && cur.Op == Update:
			// A blank context line whose space an editor removed.
			h.Old = append(h.Old, "")
			h.New = append(h.New, "")
		}
	}
	closeHunk()
	if len(files) == 0 {
		return nil
	}
	return files
}

// Added is the text of the lines the patch adds to the file, hunk by hunk.
func (f File) Added() []string {
	var out []string
	for _, h := range f.Hunks {
		if len(h.Added) > 0 {
			out = append(out, strings.Join(h.Added, "\n"))
		}
	}
	return out
}

// Writes are the file's edits for locating on disk: a new file whole, an
// update's hunks as replacements (each hunk's context makes its place
// in the file unique, most often; one that is not gives no lines).
func (f File) Writes() []position.Write {
	var out []position.Write
	for _, h := range f.Hunks {
		if len(h.Added) == 0 {
			continue // removed lines only: nothing written
		}
		if f.Op == Add {
			out = append(out, position.Write{Whole: true, New: strings.Join(h.New, "\n") + "\n"})
			continue
		}
		out = append(out, position.Write{Old: lines(h.Old), New: lines(h.New)})
	}
	return out
}

func lines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}
