package notes

import (
	"context"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// config is git's configuration as g's git commands see it (g.Dir, g.Env),
// read the way the rest of git-convo reads it: in process where git's files
// allow, else with one git call (gitx.LoadSettingsEnv).
func (g Git) config(ctx context.Context) (*gitx.Settings, error) {
	return gitx.LoadSettingsEnv(ctx, g.Dir, g.Env)
}

// Settings reads the sharing configuration.
func (g Git) Settings(ctx context.Context) (Settings, error) {
	c, err := g.config(ctx)
	if err != nil {
		return Settings{Remote: "origin"}, err
	}
	return settingsFrom(c), nil
}

// settingsFrom is the sharing configuration in c: booleans as git reads
// them, the remote origin unless set, the writer convo.shareWriter, else
// user.email.
func settingsFrom(c *gitx.Settings) Settings {
	s := Settings{Remote: "origin"}
	s.On, _ = c.Bool(KeyShare)
	s.Prompts, _ = c.Bool(KeyPrompts)
	if v, _ := c.Get(KeyRemote); v != "" {
		s.Remote = v
	}
	s.Writer, _ = c.Get("user.email")
	if w, _ := c.Get(KeyWriter); w != "" {
		s.Writer = w
	}
	return s
}
