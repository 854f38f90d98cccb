package gitx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestAddedLinesFollowDiffRenames: the lines a commit adds are the lines
// git's own diff shows it adding (git show, which reads diff.renames), for
// every form of the setting: renames found, not found, copies found too.
func TestAddedLinesFollowDiffRenames(t *testing.T) {
	r := newTestRepo(t)
	var ten, src strings.Builder
	for i := range 10 {
		fmt.Fprintf(&ten, "moved line %d\n", i)
		fmt.Fprintf(&src, "source line %d\n", i)
	}
	r.write("a.txt", ten.String())
	r.write("src.txt", src.String())
	r.commit("root")
	r.git("mv", "a.txt", "b.txt")
	r.write("b.txt", ten.String()+"one more\n")
	r.write("copy.txt", src.String()+"copied and changed\n")
	r.write("src.txt", src.String()+"source changed\n")
	r.commit("move, copy")
	ctx := context.Background()

	tests := []struct {
		setting string // "" unset; "bare" a key without a value
		wantB   int    // lines b.txt adds: 1 when the rename is found, 11 when not
		wantCp  int    // lines copy.txt adds: 1 when the copy is found
	}{
		{"", 1, 11}, {"true", 1, 11}, {"bare", 1, 11}, {"yes", 1, 11},
		{"false", 11, 11}, {"off", 11, 11}, {"0", 11, 11},
		{"copies", 1, 1}, {"Copy", 1, 1},
	}
	for _, tt := range tests {
		t.Run("diff.renames="+tt.setting, func(t *testing.T) {
			unsetRenames(r)
			switch tt.setting {
			case "":
			case "bare":
				f, err := os.OpenFile(filepath.Join(r.dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("[diff]\n\trenames\n")
				f.Close()
			default:
				r.git("config", "diff.renames", tt.setting)
			}
			repo := r.open() // the setting is read once per Repo
			c, err := repo.ReadCommit(ctx, "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			got, err := repo.AddedLines(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			show := exec.Command("git", "-c", "core.quotePath=false", "show", "--format=", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD")
			show.Dir = r.dir
			out, err := show.Output()
			if err != nil {
				t.Fatalf("git show: %v", err)
			}
			want, _ := ParseAddedLines(strings.NewReader(string(out)))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("AddedLines:\n%v\ngit show:\n%v", got, want)
			}
			if len(got["b.txt"]) != tt.wantB || len(got["copy.txt"]) != tt.wantCp {
				t.Errorf("b.txt adds %d lines, copy.txt %d; want %d and %d", len(got["b.txt"]), len(got["copy.txt"]), tt.wantB, tt.wantCp)
			}
		})
	}

	// A value git refuses keeps git's default: renames found.
	unsetRenames(r)
	r.git("config", "diff.renames", "sometimes")
	repo := r.open()
	c, _ := repo.ReadCommit(ctx, "HEAD")
	if got, err := repo.AddedLines(ctx, c); err != nil || len(got["b.txt"]) != 1 {
		t.Errorf("diff.renames=sometimes: %v %v", got, err)
	}
}

// unsetRenames removes diff.renames (git config exits 5 when it is not set).
func unsetRenames(r *testRepo) {
	cmd := exec.Command("git", "config", "--unset-all", "diff.renames")
	cmd.Dir = r.dir
	_ = cmd.Run()
}

func TestRenameOptionFor(t *testing.T) {
	for value, want := range map[string]string{
		"true": "-M", "YES": "-M", "1": "-M", "-2": "-M", "sometimes": "-M",
		"false": "--no-renames", "Off": "--no-renames", "0": "--no-renames", "": "--no-renames",
		"copies": "-C", "COPY": "-C",
	} {
		if got := renameOptionFor(value); got != want {
			t.Errorf("diff.renames=%q: %s, want %s", value, got, want)
		}
	}
}
