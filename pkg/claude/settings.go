package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/util/filebackup"
	"github.com/git-convo/git-convo/pkg/util/jsonobj"
)

// HookSpec is one event git-convo registers in settings.json.
type HookSpec struct {
	Event   string
	Matcher string // "" for events that take no matcher
	Timeout int    // seconds
	Async   bool   // Claude Code does not wait for the command
}

// EditMatcher names the tools whose PostToolUse git-convo reads: the edit
// tools, and Bash for the commits the agent runs itself.
const EditMatcher = "Edit|Write|MultiEdit|NotebookEdit|Bash"

// DefaultHookSpecs are the events git-convo observes. None can block Claude:
// capture always exits 0 with empty stdout. Events whose reply Claude does
// not need run async, so Claude never waits on git-convo; the prompt and
// session events stay synchronous (a short timeout bounds them) so the
// order of a conversation's events is kept.
func DefaultHookSpecs() []HookSpec {
	return []HookSpec{
		{Event: "SessionStart", Timeout: 5},
		{Event: "UserPromptSubmit", Timeout: 5},
		{Event: "PostToolUse", Matcher: EditMatcher, Timeout: 10, Async: true},
		{Event: "Stop", Timeout: 10, Async: true},
		{Event: "SubagentStop", Timeout: 10, Async: true},
		{Event: "SessionEnd", Timeout: 5},
	}
}

// CaptureCommand is the command settings.json runs for every event (the
// payload names its event).
func CaptureCommand(bin string) string {
	return source.ShellQuote(bin) + " capture --agent claude"
}

// ErrMalformed: the settings file cannot be merged; it is left untouched.
var ErrMalformed = errors.New("malformed Claude Code settings")

// isOurs recognises git-convo's handler, whatever binary path it names.
func isOurs(handler json.RawMessage) bool {
	c, ok := source.CaptureEntry(handler)
	return ok && strings.Contains(c, "--agent claude")
}

// settings is a parsed settings file: the file and its hooks object.
type settings struct {
	*jsonobj.File
	hooks *jsonobj.Object
}

func readSettings(path string) (*settings, error) {
	bad := func(what string) error {
		return fmt.Errorf("%w: %s: %s (fix or move it; git-convo left it untouched)", ErrMalformed, path, what)
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

// withoutOurs removes git-convo's handlers from an event's groups, and the
// groups that held nothing else.
func (s *settings) withoutOurs(event string) ([]json.RawMessage, bool) {
	groups, _ := s.groups(event) // validated by readSettings
	var out []json.RawMessage
	changed := false
	for _, g := range groups {
		var kept []json.RawMessage
		for _, h := range g.handlers {
			if !isOurs(h) {
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

// backupKind names the copies of settings files package filebackup keeps.
const backupKind = "claude-settings"

// Install merges git-convo's hooks into the settings file at path: every
// other key, group and handler (with fields git-convo does not know) is
// kept in order; ours are replaced. The write is atomic and a file that
// would not change is not rewritten. The first install that changes the
// file keeps its original bytes in backupDir, so that Uninstall can restore
// them exactly. It returns created, updated or unchanged.
func Install(path, command string, specs []HookSpec, backupDir string) (string, error) {
	s, err := readSettings(path)
	if err != nil {
		return "", err
	}
	for _, spec := range specs {
		groups, _ := s.withoutOurs(spec.Event)
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
		return filebackup.Save(backupDir, backupKind, path, s.Existing, out)
	})
}

// Uninstall takes git-convo's hooks out of the settings file at path. When
// the file is exactly as git-convo's last install left it, the bytes from
// before that install come back (or the file goes, if it did not exist);
// otherwise only git-convo's handlers are removed, with event lists left
// empty. It returns restored, removed, unchanged or not present.
func Uninstall(path, backupDir string) (string, error) {
	cur, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "not present", nil
	}
	if err != nil {
		return "", err
	}
	if res, err := filebackup.Restore(backupDir, backupKind, path, cur); err != nil || res != "" {
		return res, err
	}
	s, err := readSettings(path)
	if err != nil {
		return "", err
	}
	changed := false
	for _, ev := range s.hooks.Keys() {
		groups, ch := s.withoutOurs(ev)
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
func Installed(path string, specs []HookSpec) (have, missing []string, err error) {
	s, err := readSettings(path)
	if err != nil {
		return nil, nil, err
	}
	for _, spec := range specs {
		groups, _ := s.groups(spec.Event)
		found := false
		for _, g := range groups {
			for _, h := range g.handlers {
				found = found || isOurs(h)
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
