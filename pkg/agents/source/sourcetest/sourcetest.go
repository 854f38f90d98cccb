// Package sourcetest holds what every agent's tests check of its parsers.
package sourcetest

import (
	"errors"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// CheckParsed is a fuzz target's check of a payload parser's answer: an
// error is ErrBadPayload, and an activity's writes and text are for files
// it names.
func CheckParsed(t *testing.T, a source.Activity, err error) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, source.ErrBadPayload) {
			t.Fatalf("an error that is not ErrBadPayload: %v", err)
		}
		return
	}
	named := map[string]bool{}
	for _, f := range a.Files {
		named[f] = true
	}
	for f := range a.Writes {
		if !named[f] {
			t.Fatalf("writes to %q, a file not in Files", f)
		}
	}
	for f := range a.Added {
		if !named[f] {
			t.Fatalf("text added to %q, a file not in Files", f)
		}
	}
}
