package cli

import (
	"reflect"
	"testing"
)

func TestOnlyIn(t *testing.T) {
	hashes := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name string
		set  map[string]bool
		want []string
	}{
		{"no set: every commit is asked for", nil, hashes},
		{"empty set: none", map[string]bool{}, nil},
		{"some", map[string]bool{"c": true, "a": true, "z": true}, []string{"a", "c"}},
	} {
		if got := onlyIn(tc.set)(hashes); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAbbrevOption(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-n5"}, false},
		{[]string{"--abbrev=12"}, true},
		{[]string{"--no-abbrev", "-n1"}, true},
		{[]string{"--", "--abbrev=12"}, false}, // a path
	} {
		if got := abbrevOption(tc.args); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.args, got, tc.want)
		}
	}
}
