// Package githooks edits git hook files: it inserts, upgrades and removes
// git-convo's marker-delimited block, keeping the user's own content byte for
// byte.
package githooks

import (
	"bytes"
	"errors"
	"regexp"
	"sync"
)

// The markers that delimit git-convo's block in a hook file.
const (
	BeginMarker = "# >>> git-convo >>>"
	EndMarker   = "# <<< git-convo <<<"
)

// ErrDamaged: a begin marker without its end marker (or the reverse). The
// file is left alone rather than guessed at.
var ErrDamaged = errors.New("the git-convo block is damaged (a marker is missing): fix the hook by hand")

// ErrNotShell: the hook is not a POSIX shell script, so a shell block cannot
// be put in it.
var ErrNotShell = errors.New("the hook is not a shell script")

// shellShebang matches the shells a POSIX block can run in. Compiled on
// first use: every git-convo process links this package, few call it.
var shellShebang = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^#!\s*(/usr/bin/env\s+(-S\s+)?)?(\S*/)?(sh|bash|dash|zsh|ksh|ash|mksh|busybox\s+sh)(\s.*)?$`)
})

// IsShell reports whether content is a hook git-convo can edit: a POSIX
// shell shebang, or no shebang at all (git runs those with sh).
func IsShell(content []byte) bool {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return true
	}
	line, _, _ := bytes.Cut(content, []byte("\n"))
	return shellShebang().Match(bytes.TrimRight(line, "\r"))
}

// find returns the byte range [start, end) of the block, including the end
// marker's line ending, or -1 when there is none.
func find(content []byte) (start, end int, err error) {
	b := lineIndex(content, BeginMarker)
	e := lineIndex(content, EndMarker)
	switch {
	case b < 0 && e < 0:
		return -1, -1, nil
	case b < 0 || e < 0 || e < b:
		return -1, -1, ErrDamaged
	}
	end = e + len(EndMarker)
	if end < len(content) && content[end] == '\r' {
		end++
	}
	if end < len(content) && content[end] == '\n' {
		end++
	}
	return b, end, nil
}

// lineIndex finds marker at the start of a line.
func lineIndex(content []byte, marker string) int {
	off := 0
	for {
		i := bytes.Index(content[off:], []byte(marker))
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || content[i-1] == '\n' {
			return i
		}
		off = i + 1
	}
}

// Has reports whether content holds a git-convo block.
func Has(content []byte) bool {
	s, _, err := find(content)
	return s >= 0 || err != nil
}

// Insert puts block right after the shebang line (a hook ending in `exit 0`
// would never reach appended lines), or replaces an existing block of any
// version in place. A CRLF file gets the block with CRLF endings.
func Insert(content []byte, block string) ([]byte, error) {
	blk := []byte(block)
	if !bytes.HasSuffix(blk, []byte("\n")) {
		blk = append(blk, '\n')
	}
	start, end, err := find(content)
	if err != nil {
		return nil, err
	}
	// Line endings follow the user's own content, not the block's.
	user := content
	if start >= 0 {
		user, _, _ = Remove(content)
	}
	if bytes.Contains(user, []byte("\r\n")) {
		blk = bytes.ReplaceAll(bytes.ReplaceAll(blk, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	}
	out := make([]byte, 0, len(content)+len(blk)+1)
	if start >= 0 {
		if end == len(content) && !bytes.HasSuffix(content, []byte("\n")) {
			blk = bytes.TrimRight(blk, "\r\n") // keep the missing final newline
		}
		out = append(out, content[:start]...)
		out = append(out, blk...)
		return append(out, content[end:]...), nil
	}
	at := 0
	if bytes.HasPrefix(content, []byte("#!")) {
		if nl := bytes.IndexByte(content, '\n'); nl >= 0 {
			at = nl + 1
		} else {
			// A shebang with no newline: the block goes on the next line and
			// keeps the file's missing final newline, so Remove can tell this
			// case apart and restore the exact bytes.
			out = append(out, content...)
			out = append(out, '\n')
			return append(out, bytes.TrimRight(blk, "\r\n")...), nil
		}
	}
	out = append(out, content[:at]...)
	out = append(out, blk...)
	return append(out, content[at:]...), nil
}

// Remove takes the block out, leaving the rest byte for byte as it was
// before Insert. It reports whether there was a block.
func Remove(content []byte) ([]byte, bool, error) {
	start, end, err := find(content)
	if err != nil {
		return nil, false, err
	}
	if start < 0 {
		return content, false, nil
	}
	if end == len(content) && !bytes.HasSuffix(content, []byte("\n")) && start > 0 && content[start-1] == '\n' {
		start-- // the newline Insert added after a shebang that had none
	}
	out := append(append([]byte{}, content[:start]...), content[end:]...)
	return out, true, nil
}

// Current extracts the block in content ("" when none).
func Current(content []byte) string {
	start, end, err := find(content)
	if err != nil || start < 0 {
		return ""
	}
	return string(content[start:end])
}
