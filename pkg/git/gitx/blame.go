package gitx

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// BlameOptions selects what to blame: either Rev, Path and Ranges, or Args.
type BlameOptions struct {
	Rev    string   // "" for the work tree
	Path   string   // relative to the current directory, as git takes it
	Ranges []string // -L values ("10,20", ":func")
	// Args are `git blame` arguments as the user typed them (options in any
	// form git takes, [<rev>] [--] <file>, in any order git takes): they
	// reach git as they are, after --porcelain, so git parses them exactly
	// as `git blame` would. Options that shape git's own output are the
	// caller's to leave out.
	Args []string
}

// BlameLine is one line of `git blame --porcelain`.
type BlameLine struct {
	Line       int // final line number, 1-based
	OrigLine   int // its number in Commit's version of the file
	Commit     string
	Author     string
	AuthorMail string    // without the angle brackets
	AuthorTime time.Time // in the author's time zone
	Summary    string
	Filename   string // the path in Commit (differs across renames)
	Boundary   bool   // Commit is the range's boundary (or a root commit)
	// Previous is the commit before Commit that touched the line's file, and
	// PreviousFilename its path there ("" when git gave none).
	Previous         string
	PreviousFilename string
	Text             string // the line without its line ending
}

// Blame runs git's own blame (exact and fast; go-git's is 17-50x slower and
// disagrees on 7-8 % of lines) and parses its porcelain output while git
// writes it.
func (r *Repo) Blame(ctx context.Context, o BlameOptions) ([]BlameLine, error) {
	// blame in git 2.39 takes no --end-of-options: a revision that looks
	// like an option is refused here rather than obeyed by git.
	if strings.HasPrefix(o.Rev, "-") {
		return nil, fmt.Errorf("unknown revision %q", o.Rev)
	}
	args := []string{"blame", "--porcelain"}
	if o.Args != nil {
		args = append(args, o.Args...)
	} else {
		for _, l := range o.Ranges {
			args = append(args, "-L", l)
		}
		if o.Rev != "" {
			args = append(args, o.Rev)
		}
		args = append(args, "--", o.Path)
	}
	var lines []BlameLine
	err := r.userRun().stream(ctx, args, func(out io.Reader) error {
		var perr error
		lines, perr = ParseBlame(out)
		return perr
	})
	if err != nil {
		return nil, err
	}
	return lines, nil
}
