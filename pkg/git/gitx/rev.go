package gitx

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// RevParse resolves revisions (anything `git rev-parse` accepts) to full
// commit hashes, in order. A revision that names no commit is an error that
// quotes it; other failures (not a repository) are git's own.
func (r *Repo) RevParse(ctx context.Context, revs ...string) ([]string, error) {
	out := make([]string, 0, len(revs))
	for _, rev := range revs {
		// One process per revision: --verify takes exactly one. ":/<text>"
		// is always a commit and would swallow the suffix into its text.
		peeled := rev + "^{commit}"
		if strings.HasPrefix(rev, ":/") {
			peeled = rev
		}
		b, err := r.run.output(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", peeled)
		if err != nil {
			return nil, revError(rev, err)
		}
		out = append(out, strings.TrimSpace(string(b)))
	}
	return out, nil
}

// Abbrevs returns git's unique abbreviation of each full hash (%h: at least
// core.abbrev, or git's automatic length, and long enough to be unique), with
// one git process per thousand hashes.
func (r *Repo) Abbrevs(ctx context.Context, hashes []string) (map[string]string, error) {
	out := make(map[string]string, len(hashes))
	for len(hashes) > 0 {
		n := min(len(hashes), 1000)
		args := append([]string{"-c", "log.showSignature=false", "log", "--no-walk=unsorted", "--format=%H %h"}, hashes[:n]...)
		b, err := r.run.output(ctx, args...)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if h, short, ok := strings.Cut(line, " "); ok {
				out[h] = short
			}
		}
		hashes = hashes[n:]
	}
	return out, nil
}

// revError names the revision that failed: --quiet keeps git silent about
// a revision it does not know (exit 1), but not about one naming something
// other than a commit; anything else (not a repository) is git's own error.
func revError(rev string, err error) error {
	var ge *Error
	if !errors.As(err, &ge) {
		return err
	}
	msg := strings.TrimSpace(ge.Stderr)
	switch {
	case msg == "" && ge.ExitCode() == 1:
		return fmt.Errorf("unknown revision %q: not a commit in this repository (try `git log` to find one)", rev)
	case strings.Contains(msg, rev):
		return fmt.Errorf("unknown revision %q: %s", rev, ge.Error())
	}
	return err
}

// IsFullHash reports a full SHA-1 or SHA-256 object name in lower-case hex.
func IsFullHash(s string) bool { return isFullHash(s) }

// isFullHash is IsFullHash for bytes too, so parsers need not allocate a
// string to ask.
func isFullHash[T string | []byte](s T) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
