package cli

import (
	"errors"
	"os"
	"reflect"
	"testing"
)

func TestSplitGitArgs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   gitArgSpec
		args   []string
		git    []string
		flags  []string
		json   bool
		color  string
		refuse bool
	}{
		{name: "values are never split at commas", spec: blameSpec(), args: []string{"-L", "2,2", "-L2,+1", "f"},
			git: []string{"-L", "2,2", "-L2,+1", "f"}},
		{name: "options after the file", spec: blameSpec(), args: []string{"f", "--json", "-L", "1,2", "-w"},
			git: []string{"f", "-L", "1,2", "-w"}, json: true},
		{name: "a value that looks like our option is git's", spec: blameSpec(), args: []string{"-L", "/--json/,+1", "f"},
			git: []string{"-L", "/--json/,+1", "f"}},
		{name: "bundled letters; ours taken out", spec: blameSpec(), args: []string{"-sw", "-e", "f"},
			git: []string{"-s", "-w", "f"}, flags: []string{"-e"}},
		{name: "a bundle ending in a value letter", spec: blameSpec(), args: []string{"-wL", "3,4", "f"},
			git: []string{"-w", "-L", "3,4", "f"}},
		{name: "nothing after -- is ours", spec: blameSpec(), args: []string{"--", "--json", "--contents=x"},
			git: []string{"--", "--json", "--contents=x"}},
		{name: "nor after --end-of-options", spec: logSpec(), args: []string{"--end-of-options", "--color=always"},
			git: []string{"--end-of-options", "--color=always"}},
		{name: "log values", spec: logSpec("--only-linked"), args: []string{"-n5", "--author", "--json", "--since=2.weeks", "-Sa,b", "--only-linked", "--color=never", "f.txt"},
			git: []string{"-n5", "--author", "--json", "--since=2.weeks", "-Sa,b", "f.txt"}, flags: []string{"--only-linked"}, color: "never"},
		{name: "refused format", spec: logSpec(), args: []string{"--graph"}, refuse: true},
		{name: "git writes no file of ours", spec: showSpec(), args: []string{"--output=/tmp/x"}, refuse: true},
		{name: "refused with a value", spec: logSpec(), args: []string{"--stat=80"}, refuse: true},
		{name: "refused inside a bundle", spec: logSpec(), args: []string{"-sp"}, refuse: true},
		{name: "refused value letter", spec: logSpec(), args: []string{"-U3"}, refuse: true},
		{name: "blame's own formats refused", spec: blameSpec(), args: []string{"-tw", "f"}, refuse: true},
		{name: "show refuses --oneline", spec: showSpec(), args: []string{"--oneline"}, refuse: true},
		{name: "show passes ranges and counts", spec: showSpec(), args: []string{"-1", "A..B", ":/fix, then"},
			git: []string{"-1", "A..B", ":/fix, then"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ra, err := splitGitArgs(tc.args, tc.spec)
			var ue usageError
			if tc.refuse {
				if !errors.As(err, &ue) {
					t.Fatalf("want a usage error, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var flags []string
			for f := range ra.flags {
				flags = append(flags, f)
			}
			color := tc.color
			if color == "" {
				color = "auto"
			}
			if !reflect.DeepEqual(ra.git, tc.git) || !reflect.DeepEqual(flags, tc.flags) || ra.json != tc.json || ra.color != color {
				t.Errorf("got %q flags %q json %v color %s", ra.git, flags, ra.json, ra.color)
			}
		})
	}
}

func TestStatsPaths(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, f := range []string{"f.txt", "dir"} {
		if err := writeFileForTest(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args  []string
		paths []string
		revs  bool
	}{
		{nil, nil, false},
		{[]string{"f.txt"}, []string{"f.txt"}, false},
		{[]string{"-n", "5", "main", "f.txt"}, []string{"f.txt"}, true},
		{[]string{"--author", "f.txt", "dir"}, []string{"dir"}, false},
		{[]string{"HEAD~3..HEAD", "--", "gone.txt"}, []string{"gone.txt"}, true},
	} {
		paths, revs := statsPaths(tc.args)
		if !reflect.DeepEqual(paths, tc.paths) || revs != tc.revs {
			t.Errorf("%q: %q %v, want %q %v", tc.args, paths, revs, tc.paths, tc.revs)
		}
	}
}

func writeFileForTest(name string) error { return os.WriteFile(name, []byte("x\n"), 0o644) }
