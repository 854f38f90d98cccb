package cursor

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// AddedText returns, per edited file (as EditedFiles names it), the text this
// payload says the agent wrote there: afterFileEdit's new_string values,
// Write's content, StrReplace's new_string, the "+" lines of an ApplyPatch.
// Line-level attribution matches a commit's added lines against it.
func (p *Payload) AddedText() map[string][]string {
	out := map[string][]string{}
	files := p.EditedFiles()
	if len(files) == 0 {
		return out
	}
	switch p.Event {
	case "afterFileEdit", "afterTabFileEdit":
		for _, e := range p.Edits {
			if e.NewString != "" {
				out[files[0]] = append(out[files[0]], e.NewString)
			}
		}
	case "postToolUse":
		if patch := p.ToolInput.str("patch", "input", "diff"); patch != "" {
			match := fileMatcher(files)
			for file, text := range patchAdditions(patch) {
				if f, ok := match(file); ok {
					out[f] = append(out[f], text)
				}
			}
			return out
		}
		if t := p.ToolInput.str("content", "contents", "new_string", "newString", "code_edit", "text"); t != "" {
			out[files[0]] = append(out[files[0]], t)
		}
		if edits, ok := p.ToolInput["edits"].([]any); ok {
			for _, e := range edits {
				if m, ok := e.(map[string]any); ok {
					if s, ok := m["new_string"].(string); ok {
						out[files[0]] = append(out[files[0]], s)
					}
				}
			}
		}
	}
	return out
}

// fileMatcher returns a lookup of a patch's file name among files: the
// first file that is that name, or ends with "/" and that name. It indexes
// every path suffix once, so a patch naming 100,000 files costs linear time,
// not a scan of every file for each name.
func fileMatcher(files []string) func(name string) (string, bool) {
	first := map[string]int{} // a name, or a path suffix after a "/", to the first file it matches
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		first[f] = i
		for j := 0; j < len(f); j++ {
			if f[j] == '/' {
				first["/"+f[j+1:]] = i
			}
		}
	}
	return func(name string) (string, bool) {
		best, found := len(files), false
		if i, ok := first[name]; ok {
			best, found = i, true
		}
		if i, ok := first["/"+strings.TrimPrefix(name, "/")]; ok && i < best {
			best, found = i, true
		}
		if !found {
			return "", false
		}
		return files[best], true
	}
}

// patchAdditions returns each file's added lines in an ApplyPatch text or a
// unified diff, joined with newlines.
func patchAdditions(patch string) map[string]string {
	out := map[string]string{}
	for file, hunks := range patchHunks(patch) {
		for _, h := range hunks {
			out[file] += h.added
		}
	}
	return out
}

// Writes returns, per edited file, this payload's edits as replacements
// (see source.Activity.Writes): afterFileEdit's old/new strings,
// StrReplace's, Write's whole content, an ApplyPatch's hunks.
func (p *Payload) Writes() map[string][]position.Write {
	out := map[string][]position.Write{}
	files := p.EditedFiles()
	if len(files) == 0 {
		return out
	}
	switch p.Event {
	case "afterFileEdit", "afterTabFileEdit":
		for _, e := range p.Edits {
			out[files[0]] = append(out[files[0]], position.Write{Old: e.OldString, New: e.NewString})
		}
	case "postToolUse":
		if patch := p.ToolInput.str("patch", "input", "diff"); patch != "" {
			match := fileMatcher(files)
			for file, ws := range patchWrites(patch) {
				if f, ok := match(file); ok {
					out[f] = append(out[f], ws...)
				}
			}
			return out
		}
		if n, ok := p.ToolInput["new_string"].(string); ok {
			out[files[0]] = append(out[files[0]], position.Write{Old: p.ToolInput.str("old_string"), New: n})
		} else if t := p.ToolInput.str("content", "contents"); t != "" {
			out[files[0]] = append(out[files[0]], position.Write{Whole: true, New: t})
		}
		if edits, ok := p.ToolInput["edits"].([]any); ok {
			for _, e := range edits {
				if m, ok := e.(map[string]any); ok {
					n, _ := m["new_string"].(string)
					o, _ := m["old_string"].(string)
					out[files[0]] = append(out[files[0]], position.Write{Old: o, New: n})
				}
			}
		}
	}
	return out
}

// patchWrites returns each file's hunks of an ApplyPatch text or a unified
// diff as replacements: context and "-" lines replaced by context and "+"
// lines. A whole new file is a whole-file write.
func patchWrites(patch string) map[string][]position.Write {
	out := map[string][]position.Write{}
	for file, hunks := range patchHunks(patch) {
		for _, h := range hunks {
			out[file] = append(out[file], h.write)
		}
	}
	return out
}

// patchHunk is one hunk of a patch: as a replacement, and its "+" lines.
type patchHunk struct {
	write position.Write
	added string
}

// patchHunks reads an ApplyPatch text or a unified diff into each file's
// hunks that add lines.
func patchHunks(patch string) map[string][]patchHunk {
	out := map[string][]patchHunk{}
	file, whole := "", false
	var old, new, added strings.Builder
	flush := func() {
		if file != "" && added.Len() > 0 {
			out[file] = append(out[file], patchHunk{position.Write{Old: old.String(), New: new.String(), Whole: whole}, added.String()})
		}
		old.Reset()
		new.Reset()
		added.Reset()
	}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "*** Update File: "), strings.HasPrefix(line, "*** Add File: "):
			flush()
			file = strings.TrimSpace(line[strings.Index(line, ": ")+2:])
			whole = strings.HasPrefix(line, "*** Add File: ")
		case strings.HasPrefix(line, "*** Move to: "):
			flush()
			file = strings.TrimSpace(strings.TrimPrefix(line, "*** Move to: "))
		case strings.HasPrefix(line, "+++ "):
			flush()
			file = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(line, "+++ ")), "b/")
			whole = false
		case strings.HasPrefix(line, "@@"), strings.HasPrefix(line, "*** "), strings.HasPrefix(line, "--- "):
			flush()
		case strings.HasPrefix(line, "+"):
			new.WriteString(line[1:] + "\n")
			added.WriteString(line[1:] + "\n")
		case strings.HasPrefix(line, "-"):
			old.WriteString(line[1:] + "\n")
		case strings.HasPrefix(line, " "):
			old.WriteString(line[1:] + "\n")
			new.WriteString(line[1:] + "\n")
		}
	}
	flush()
	return out
}
