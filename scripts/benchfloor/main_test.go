package main

import (
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// TestFloorIsGitConvos: the floor runs git log exactly as git convo log's
// text output does (no %h: log abbreviates in process), with and without
// shared notes, so the floor moves when git-convo's format does.
func TestFloorIsGitConvos(t *testing.T) {
	for _, tc := range []struct {
		user  []string
		notes []string
	}{
		{[]string{"-n", "1000"}, nil},
		{[]string{"--notes=refs/notes/convo", "-n", "1000"}, []string{"refs/notes/convo"}},
		{[]string{"--notes=refs/notes/convo", "--notes=refs/notes/remotes/o/convo", "main"}, []string{"refs/notes/convo", "refs/notes/remotes/o/convo"}},
	} {
		got, err := gitArgs("log", tc.user)
		if err != nil {
			t.Fatal(err)
		}
		user := tc.user[len(tc.notes):]
		if want := gitx.LogArgs("log", gitx.LogOptions{Notes: tc.notes}, user); !reflect.DeepEqual(got, want) {
			t.Errorf("floor runs git %q,\ngit-convo runs git %q", got, want)
		}
	}
}
