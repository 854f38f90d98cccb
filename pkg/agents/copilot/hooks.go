package copilot

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/util/filebackup"
	"github.com/git-convo/git-convo/pkg/util/jsonobj"
)

// The Copilot CLI reads its hooks from the repository alone:
// .github/hooks/*.json, {"version": 1, "hooks": {"<event>": [{"type":
// "command", "bash": ..., "timeoutSec": ...}]}}. That folder is tracked, so
// git-convo writes a file of its own there: with a portable command
// (project scope, for teams that commit it), or with this machine's path
// (user scope), which .git/info/exclude then keeps out of every commit.

// HooksFile is git-convo's hooks file in a work tree.
func HooksFile(top string) string { return filepath.Join(top, ".github", "hooks", "git-convo.json") }

// excludeLines are what user scope adds to .git/info/exclude.
const excludeLines = "# git-convo: the Copilot CLI hooks name this machine's git-convo\n/.github/hooks/git-convo.json\n"

// Event is one event git-convo registers, with its timeout in seconds.
type Event struct {
	Name    string
	Timeout int
}

// Events are the Copilot CLI events git-convo registers (camelCase: the
// payloads are camelCase and name no event, so the command does).
func Events() []Event {
	return []Event{
		{"sessionStart", 5}, {"userPromptSubmitted", 5}, {"preToolUse", 5},
		{"postToolUse", 10}, {"agentStop", 10}, {"sessionEnd", 5},
	}
}

// ErrMalformed: the hooks file cannot be merged; it is left untouched.
var ErrMalformed = errors.New("malformed Copilot CLI hooks file")

const backupKind = "copilot-hooks"

// isOurs recognises git-convo's entry, whatever binary path it names.
func isOurs(entry json.RawMessage) bool {
	var e struct {
		Bash string `json:"bash"`
	}
	_ = json.Unmarshal(entry, &e)
	return (strings.Contains(e.Bash, "git-convo") || strings.Contains(e.Bash, "git convo")) &&
		strings.Contains(e.Bash, " capture") && strings.Contains(e.Bash, "--agent copilot")
}

// hooksFile is the parsed file: its top object and its hooks.
type hooksFile struct {
	*jsonobj.File
	hooks *jsonobj.Object
}

func read(path string) (*hooksFile, error) {
	bad := func(what string) error {
		return fmt.Errorf("%w: %s: %s (fix or move it; git-convo left it untouched)", ErrMalformed, path, what)
	}
	f, err := jsonobj.ReadFile(path, bad)
	if err != nil {
		return nil, err
	}
	h := &hooksFile{File: f}
	if h.hooks, err = f.Top.Child("hooks", bad); err != nil {
		return nil, err
	}
	for _, ev := range h.hooks.Keys() {
		if _, err := h.entries(ev); err != nil {
			return nil, bad(err.Error())
		}
	}
	return h, nil
}

func (h *hooksFile) entries(event string) ([]json.RawMessage, error) {
	raw, ok := h.hooks.Get(event)
	if !ok {
		return nil, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, fmt.Errorf("hooks.%s is not a list", event)
	}
	return list, nil
}

// others are an event's entries that are not git-convo's.
func (h *hooksFile) others(event string) []json.RawMessage {
	list, _ := h.entries(event)
	var out []json.RawMessage
	for _, e := range list {
		if !isOurs(e) {
			out = append(out, e)
		}
	}
	return out
}

// install writes git-convo's entries, running bin, into the file at path.
func install(path, bin, backupDir string) (string, error) {
	h, err := read(path)
	if err != nil {
		return "", err
	}
	if _, ok := h.Top.Get("version"); !ok {
		h.Top.SetFirst("version", json.RawMessage("1"))
	}
	for _, ev := range Events() {
		e, _ := json.Marshal(struct { // in this order: people read it
			Type       string `json:"type"`
			Bash       string `json:"bash"`
			TimeoutSec int    `json:"timeoutSec"`
		}{"command", source.ShellQuote(bin) + " capture --agent copilot --event " + ev.Name, ev.Timeout})
		list, _ := json.Marshal(append(h.others(ev.Name), e))
		h.hooks.Set(ev.Name, list)
	}
	h.Top.Set("hooks", h.hooks.Marshal())
	return h.Save(func(out []byte) error { return filebackup.Save(backupDir, backupKind, path, h.Existing, out) })
}

// uninstall takes git-convo's entries out: the file as it was before the
// install when nothing else changed it, else only git-convo's entries.
func uninstall(path, backupDir string) (string, error) {
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
	h, err := read(path)
	if err != nil {
		return "", err
	}
	changed := false
	for _, ev := range h.hooks.Keys() {
		list, _ := h.entries(ev)
		kept := h.others(ev)
		if len(kept) == len(list) {
			continue
		}
		changed = true
		if len(kept) == 0 {
			h.hooks.Del(ev)
			continue
		}
		b, _ := json.Marshal(kept)
		h.hooks.Set(ev, b)
	}
	if !changed {
		return "unchanged", nil
	}
	h.Top.Set("hooks", h.hooks.Marshal())
	_, err = h.Save(nil)
	return "removed", err
}

// installed reports which events have git-convo's entry, and the command.
func installed(path string) (have, missing []string, command string, err error) {
	h, err := read(path)
	if err != nil {
		return nil, nil, "", err
	}
	if h.Existing == nil {
		return nil, nil, "", os.ErrNotExist
	}
	for _, ev := range Events() {
		list, _ := h.entries(ev.Name)
		found := false
		for _, e := range list {
			if isOurs(e) {
				found = true
				var x struct {
					Bash string `json:"bash"`
				}
				_ = json.Unmarshal(e, &x)
				command = x.Bash
			}
		}
		if found {
			have = append(have, ev.Name)
		} else {
			missing = append(missing, ev.Name)
		}
	}
	return have, missing, command, nil
}

// git runs git in the work tree top.
func git(top string, args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"-C", top}, args...)...).Output()
	return strings.TrimSpace(string(out)), err
}

// tracked reports whether git tracks path in the work tree top.
func tracked(top, path string) bool {
	_, err := git(top, "ls-files", "--error-unmatch", "--", path)
	return err == nil
}

// ignored reports whether git ignores path (excluded) in top.
func ignored(top, path string) bool {
	_, err := git(top, "check-ignore", "-q", "--", path)
	return err == nil
}

// excludeFile is the repository's info/exclude (shared by its work trees).
func excludeFile(top string) (string, error) {
	dir, err := git(top, "rev-parse", "--git-common-dir")
	if err != nil {
		return "", fmt.Errorf("reading the repository at %s: %v", top, err)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(top, dir)
	}
	return filepath.Join(dir, "info", "exclude"), nil
}

// exclude adds git-convo's hooks file to info/exclude, once.
func exclude(top string) (string, error) {
	p, err := excludeFile(top)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	if strings.Contains(string(b), excludeLines) {
		return p, nil
	}
	if len(b) > 0 && !strings.HasSuffix(string(b), "\n") {
		b = append(b, '\n')
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, append(b, excludeLines...), 0o644)
}

// unexclude takes git-convo's lines out of info/exclude.
func unexclude(top string) {
	p, err := excludeFile(top)
	if err != nil {
		return
	}
	if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), excludeLines) {
		_ = os.WriteFile(p, []byte(strings.Replace(string(b), excludeLines, "", 1)), 0o644)
	}
}
