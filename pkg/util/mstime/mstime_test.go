package mstime

import (
	"testing"
	"time"
)

func TestRoundTrips(t *testing.T) {
	at := time.Date(2026, 11, 25, 15, 4, 5, 678e6, time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		name string
		ms   int64
		iso  string
	}{
		{"a time", at.UnixMilli(), "2026-11-25T14:04:05Z"},
		{"not known", 0, ""},
		{"negative: not known", -5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ISO(tc.ms); got != tc.iso {
				t.Errorf("ISO(%d) = %q, want %q", tc.ms, got, tc.iso)
			}
			if tc.ms > 0 && (!Time(tc.ms).Equal(at) || Ms(Time(tc.ms)) != tc.ms) {
				t.Errorf("Time/Ms(%d): %v %d", tc.ms, Time(tc.ms), Ms(Time(tc.ms)))
			}
			if tc.ms <= 0 && (!Time(tc.ms).IsZero() || Ms(Time(tc.ms)) != 0) {
				t.Errorf("Time(%d) = %v: want the zero time", tc.ms, Time(tc.ms))
			}
			want := tc.ms / 1000 * 1000 // ISO keeps seconds
			if tc.ms <= 0 {
				want = 0
			}
			if got := ParseISO(tc.iso); got != want {
				t.Errorf("ParseISO(%q) = %d, want %d", tc.iso, got, want)
			}
		})
	}
	if ParseISO("yesterday") != 0 || ISOTime(time.Time{}) != "" {
		t.Error("an unreadable or absent time is not 0 / \"\"")
	}
}
