// Package hookcfg merges git-convo's hooks into the hooks object that Claude
// Code's settings.json made common, and that Codex's hooks.json and Gemini
// CLI's settings.json share: {"hooks": {"<Event>": [{"matcher": ...,
// "hooks": [{"type": "command", "command": ..., "timeout": ...}]}]}}. Every
// other key, group and handler is kept in order; the write is atomic and
// only when something changed; uninstall gives the file back byte for byte
// when nothing else changed it (package filebackup).
package hookcfg

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/git-convo/git-convo/pkg/util/filebackup"
	"github.com/git-convo/git-convo/pkg/util/jsonobj"
)

// Spec is one event git-convo registers.
type Spec struct {
	Event   string
	Matcher string // "" for events that take no matcher
	Timeout int    // in the agent's unit (seconds; Gemini CLI: milliseconds)
	Async   bool   // the agent does not wait for the command (Claude Code)
}

// Config is one agent's hooks file format.
type Config struct {
	// Kind names the copies of its files that package filebackup keeps.
	Kind string
	// Malformed is wrapped in the error of a file that cannot be merged
	// (left untouched).
	Malformed error
	// Ours recognises git-convo's handler, whatever binary path it names.
	Ours func(handler json.RawMessage) bool
	// Enable, when set, is a key of the hooks object that is no event and
	// that install sets to true when absent (Gemini CLI's "enabled").
	Enable string
}

// settings is a parsed settings file: the file and its hooks object.
type settings struct {
	*jsonobj.File
	hooks *jsonobj.Object
}

func (c Config) read(path string) (*settings, error) {
	bad := func(what string) error {
		return fmt.Errorf("%w: %s: %s (fix or move it; git-convo left it untouched)", c.Malformed, path, what)
	}
	f, err := jsonobj.ReadFile(path, bad)
	if err != nil {
		return nil, err
	}
	s := &settings{File: f}
	if s.hooks, err = f.Top.Child("hooks", bad); err != nil {
		return nil, err
	}
	for _, ev := range s.hooks.Keys() {
		if ev == c.Enable {
			continue
		}
		if _, err := s.groups(ev); err != nil {
			return nil, bad(err.Error())
		}
	}
	return s, nil
}

// group is one matcher group: {"matcher": ..., "hooks": [handlers]}, its
// other keys kept.
type group struct {
	obj      *jsonobj.Object
	handlers []json.RawMessage
}

func (s *settings) groups(event string) ([]group, error) {
	raw, ok := s.hooks.Get(event)
	if !ok {
		return nil, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, fmt.Errorf("hooks.%s is not a list", event)
	}
	out := make([]group, 0, len(list))
	for _, g := range list {
		obj, err := jsonobj.Parse(g)
		if err != nil {
			return nil, fmt.Errorf("an entry of hooks.%s is not an object", event)
		}
		var handlers []json.RawMessage
		if h, ok := obj.Get("hooks"); ok && json.Unmarshal(h, &handlers) != nil {
			return nil, fmt.Errorf(`hooks.%s[].hooks is not a list`, event)
		}
		out = append(out, group{obj: obj, handlers: handlers})
	}
	return out, nil
}

// withoutOurs removes git-convo's handlers (ours) from an event's groups,
// and the groups that held nothing else.
func (s *settings) withoutOurs(event string, ours func(json.RawMessage) bool) ([]json.RawMessage, bool) {
	groups, _ := s.groups(event) // validated by readSettings
	var out []json.RawMessage
	changed := false
	for _, g := range groups {
		var kept []json.RawMessage
		for _, h := range g.handlers {
			if !ours(h) {
				kept = append(kept, h)
			}
		}
		if len(kept) == len(g.handlers) {
			out = append(out, g.obj.Marshal())
			continue
		}
		changed = true
		if len(kept) == 0 {
			continue
		}
		list, _ := json.Marshal(kept)
		g.obj.Set("hooks", list)
		out = append(out, g.obj.Marshal())
	}
	return out, changed
}

// Install merges git-convo's hooks into the settings file at path: every
// other key, group and handler (with fields git-convo does not know) is
// kept in order; ours are replaced. The write is atomic and a file that
// would not change is not rewritten. The first install that changes the
// file keeps its original bytes in backupDir, so that Uninstall can restore
// them exactly. It returns created, updated or unchanged.
func (c Config) Install(path, command string, specs []Spec, backupDir string) (string, error) {
	s, err := c.read(path)
	if err != nil {
		return "", err
	}
	if _, ok := s.hooks.Get(c.Enable); c.Enable != "" && !ok {
		s.hooks.Set(c.Enable, json.RawMessage("true"))
	}
	for _, spec := range specs {
		groups, _ := s.withoutOurs(spec.Event, c.Ours)
		g := jsonobj.New()
		if spec.Matcher != "" {
			m, _ := json.Marshal(spec.Matcher)
			g.Set("matcher", m)
		}
		h, _ := json.Marshal(struct { // in this order: settings files are read by people
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout"`
			Async   bool   `json:"async,omitempty"`
		}{"command", command, spec.Timeout, spec.Async})
		g.Set("hooks", json.RawMessage("["+string(h)+"]"))
		groups = append(groups, g.Marshal())
		list, _ := json.Marshal(groups)
		s.hooks.Set(spec.Event, list)
	}
	s.Top.Set("hooks", s.hooks.Marshal())
	return s.Save(func(out []byte) error {
		return filebackup.Save(backupDir, c.Kind, path, s.Existing, out)
	})
}

// Uninstall takes git-convo's hooks out of the settings file at path. When
// the file is exactly as git-convo's last install left it, the bytes from
// before that install come back (or the file goes, if it did not exist);
// otherwise only git-convo's handlers are removed, with event lists left
// empty. It returns restored, removed, unchanged or not present.
func (c Config) Uninstall(path, backupDir string) (string, error) {
	cur, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "not present", nil
	}
	if err != nil {
		return "", err
	}
	if res, err := filebackup.Restore(backupDir, c.Kind, path, cur); err != nil || res != "" {
		return res, err
	}
	s, err := c.read(path)
	if err != nil {
		return "", err
	}
	changed := false
	for _, ev := range s.hooks.Keys() {
		groups, ch := s.withoutOurs(ev, c.Ours)
		if !ch {
			continue
		}
		changed = true
		if len(groups) == 0 {
			s.hooks.Del(ev)
			continue
		}
		list, _ := json.Marshal(groups)
		s.hooks.Set(ev, list)
	}
	if !changed {
		return "unchanged", nil
	}
	if s.hooks.Len() == 0 {
		s.Top.Del("hooks")
	} else {
		s.Top.Set("hooks", s.hooks.Marshal())
	}
	_, err = s.Save(nil) // something of ours went, so the content changed
	return "removed", err
}

// Installed reports which of specs' events have git-convo's handler in the
// settings file at path (doctor).
func (c Config) Installed(path string, specs []Spec) (have, missing []string, err error) {
	s, err := c.read(path)
	if err != nil {
		return nil, nil, err
	}
	for _, spec := range specs {
		groups, _ := s.groups(spec.Event)
		found := false
		for _, g := range groups {
			for _, h := range g.handlers {
				found = found || c.Ours(h)
			}
		}
		if found {
			have = append(have, spec.Event)
		} else {
			missing = append(missing, spec.Event)
		}
	}
	return have, missing, nil
}
