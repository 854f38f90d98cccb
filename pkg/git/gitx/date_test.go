package gitx

import (
	"context"
	"testing"
	"time"
)

func TestApproxDate(t *testing.T) {
	isolate(t)
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2.weeks", now.Add(-14 * 24 * time.Hour)},
		{"2 weeks ago", now.Add(-14 * 24 * time.Hour)},
		{"3.days.ago", now.Add(-3 * 24 * time.Hour)},
		{"@1700000000", time.Unix(1700000000, 0)},
	} {
		got, err := ApproxDate(context.Background(), tc.in, now)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
	// Before 1970 (scripts/bench.sh imports since "100 years ago").
	if got, err := ApproxDate(context.Background(), "100 years ago", now); err != nil || got.Year() != 1926 {
		t.Errorf("100 years ago: %v %v, want a time in 1926", got, err)
	}
	if _, err := ApproxDate(context.Background(), "not a date", now); err == nil {
		t.Error("not a date: no error")
	}
}
