package notes

import (
	"context"
	"os"
	"path/filepath"
)

// Teardown takes out what sharing left in this clone's git data, for
// uninstall: the sharing settings (so a later install never shares
// unasked, and a later share on names the clone anew), the sharing state
// and the records derived while not sharing (derived again from notes
// when needed). Notes stay: they are the team's. It returns what it
// removed, for the user.
func (g Git) Teardown(ctx context.Context) ([]string, error) {
	var removed []string
	for _, key := range []string{KeyShare, KeyPrompts, KeyRemote, KeyWriter} {
		if _, err := g.run(ctx, nil, "config", "--local", "--unset-all", key); err == nil {
			removed = append(removed, "git config "+key)
		} else if c := exitCode(err); c != 5 && c != 1 { // 5: not set
			return removed, err
		}
	}
	_, common, err := g.where(ctx)
	if err != nil {
		return removed, err
	}
	for _, name := range []string{stateFile, derivedFile, rewritesFile, mentionsFile, linksFile} {
		p := filepath.Join(common, name)
		if err := os.Remove(p); err == nil {
			removed = append(removed, p)
		} else if !os.IsNotExist(err) {
			return removed, err
		}
	}
	// A cache's file a killed process left half written, beside it.
	for _, name := range []string{mentionsFile, linksFile} {
		left, _ := filepath.Glob(filepath.Join(common, name+".*"))
		for _, p := range left {
			if err := os.Remove(p); err == nil {
				removed = append(removed, p)
			}
		}
	}
	return removed, nil
}
