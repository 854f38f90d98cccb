package gitx

import "testing"

func TestShortHash(t *testing.T) {
	for in, want := range map[string]string{
		"0123456789abcdef0123456789abcdef01234567": "0123456789ab",
		"0123456789abc": "0123456789ab",
		"0123456789ab":  "0123456789ab",
		"abc":           "abc",
		"":              "",
	} {
		if got := ShortHash(in); got != want {
			t.Errorf("ShortHash(%q) = %q, want %q", in, got, want)
		}
	}
}
