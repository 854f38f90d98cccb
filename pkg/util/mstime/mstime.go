// Package mstime converts between times and the Unix milliseconds
// git-convo stores (links.sqlite, agents' databases), and the RFC 3339
// UTC strings its JSON and notes carry. A zero or negative millisecond
// count means "not known", as does a zero time.Time and an empty string.
package mstime

import "time"

// Time is ms as a time.Time; the zero time when ms is not known (<= 0).
func Time(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// Ms is t in Unix milliseconds; 0 for the zero time.
func Ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// ISO is ms as RFC 3339 in UTC, to the second; "" when ms is not known.
func ISO(ms int64) string {
	return ISOTime(Time(ms))
}

// ISOTime is t as RFC 3339 in UTC, to the second; "" for the zero time.
func ISOTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// ParseISO is an RFC 3339 string in Unix milliseconds; 0 when s is empty
// or not RFC 3339.
func ParseISO(s string) int64 {
	if s == "" { // the usual case (a field not given): no error to build
		return 0
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
