package notes

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSettingsReadAsGitDoes reads sharing settings as git sees them in the
// repository with Git's own environment: in process, and through git where
// the files need it (an include, `git -c`).
func TestSettingsReadAsGitDoes(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		config string   // appended to the repository's config
		env    []string // added to Git.Env
		want   Settings
	}{
		{"unset", "", nil, Settings{Remote: "origin", Writer: "t@example.com"}},
		{"set", "[convo]\n\tshare = yes\n\tsharePrompts = TRUE\n\tshareRemote = up\n\tshareWriter = w1\n", nil,
			Settings{On: true, Prompts: true, Remote: "up", Writer: "w1"}},
		// git reads a key with no value as true; `--get-regexp` printed it as "".
		{"no value", "[convo]\n\tshare\n", nil, Settings{On: true, Remote: "origin", Writer: "t@example.com"}},
		{"off", "[convo]\n\tshare = off\n\tshareRemote =\n", nil, Settings{Remote: "origin", Writer: "t@example.com"}},
		{"the last wins", "[convo]\n\tshare = true\n[convo]\n\tshare = false\n", nil, Settings{Remote: "origin", Writer: "t@example.com"}},
		{"include", "[include]\n\tpath = extra.cfg\n", nil, Settings{On: true, Remote: "inc", Writer: "t@example.com"}},
		{"git -c", "", []string{"GIT_CONFIG_PARAMETERS='convo.share'='true'"}, Settings{On: true, Remote: "origin", Writer: "t@example.com"}},
		{"GIT_CONFIG_COUNT", "", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.email", "GIT_CONFIG_VALUE_0=e@x"},
			Settings{Remote: "origin", Writer: "e@x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, _ := repoWithCommits(t, 1)
			gitDir := filepath.Join(g.Dir, ".git")
			os.WriteFile(filepath.Join(gitDir, "extra.cfg"), []byte("[convo]\n\tshare = on\n\tshareRemote = inc\n"), 0o644)
			f, err := os.OpenFile(filepath.Join(gitDir, "config"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(c.config)
			f.Close()
			g.Env = append(g.Env, c.env...)
			got, err := g.Settings(ctx)
			if err != nil || got != c.want {
				t.Errorf("Settings = %+v, %v; want %+v", got, err, c.want)
			}
			// Config reads the same configuration.
			if v, err := g.Config(ctx, "user.email"); err != nil || (c.want.Writer != "w1" && v != c.want.Writer) {
				t.Errorf("Config(user.email) = %q, %v", v, err)
			}
		})
	}
}
