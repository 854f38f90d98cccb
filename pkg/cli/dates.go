package cli

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// parseSince reads a --since date: a calendar date (2026-11-01, midnight
// here), a short age (3d, 2w, 12h), or else every form git log --since
// takes ("2.weeks", "yesterday", "2 weeks ago"), read by git itself so the
// two never disagree.
func parseSince(ctx context.Context, s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if len(s) > 1 {
		unit := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour,
			'w': 7 * 24 * time.Hour, 'y': 365 * 24 * time.Hour}[s[len(s)-1]]
		if n, err := strconv.Atoi(s[:len(s)-1]); err == nil && n >= 0 && unit > 0 {
			return now.Add(-time.Duration(n) * unit), nil
		}
	}
	return gitx.ApproxDate(ctx, s, now)
}
