package cursor

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/util/filebackup"
	"github.com/git-convo/git-convo/pkg/util/jsonobj"
)

// HookSpec is one event git-convo registers in hooks.json.
type HookSpec struct {
	Event   string
	Timeout int // seconds
}

// DefaultHookSpecs are the events git-convo observes. None is a permission or
// fail-closed event (preToolUse, beforeShellExecution, beforeMCPExecution,
// beforeReadFile): a bug in an observer must never block the user.
// afterShellExecution (fire-and-forget) shows the agent's own git commits.
func DefaultHookSpecs() []HookSpec {
	return []HookSpec{
		{"sessionStart", 5}, {"beforeSubmitPrompt", 5}, {"afterFileEdit", 5}, {"postToolUse", 5},
		{"afterShellExecution", 5}, {"afterAgentResponse", 5}, {"stop", 10}, {"sessionEnd", 5},
	}
}

func blockingEvent(event string) bool {
	switch event {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeTabFileRead":
		return true
	}
	return false
}

// ErrMalformedHooksJSON: the existing file cannot be merged; it is left untouched.
var ErrMalformedHooksJSON = errors.New("malformed hooks.json")

// CaptureCommand is the command hooks.json runs for an event. bin is an
// absolute path (user-level file: GUI-launched Cursor may lack the user's
// PATH) or "git-convo" (a project file shared by a team).
func CaptureCommand(bin, event string) string {
	return source.ShellQuote(bin) + " capture --event " + event
}

// isOurs recognises git-convo's entries, whatever binary path they name.
func isOurs(entry json.RawMessage) bool {
	_, ok := source.CaptureEntry(entry)
	return ok
}

// object is a JSON object that keeps its keys' order, so merging does not
// reorder or drop what other tools wrote.
type object = jsonobj.Object

// malformed is the error for a file of Cursor's that cannot be merged.
func malformed(path string) func(what string) error {
	return func(what string) error {
		return fmt.Errorf("%w: %s: %s (fix or move it; git-convo will not overwrite it)", ErrMalformedHooksJSON, path, what)
	}
}

// readHooksFile returns the file and its hooks object (empty for a missing
// or empty file), or ErrMalformedHooksJSON.
func readHooksFile(path string) (f *jsonobj.File, hooks *object, err error) {
	if f, err = jsonobj.ReadFile(path, malformed(path)); err != nil {
		return nil, nil, err
	}
	if hooks, err = f.Top.Child("hooks", malformed(path)); err != nil {
		return nil, nil, err
	}
	return f, hooks, nil
}

// backupKind names the copies of hooks.json package filebackup keeps.
const backupKind = "cursor-hooks"

// InstallHooksJSON merges git-convo's capture hooks into the hooks.json at
// path: other tools' entries and unknown keys are kept in order, ours are
// replaced, version is set to 1 when absent. A file that would not change is
// not rewritten. The first install that changes the file keeps its original
// bytes in backupDir ("": none kept), so that UninstallHooksJSON can restore
// them exactly. It returns what happened: created, updated or unchanged.
func InstallHooksJSON(path, bin string, specs []HookSpec, backupDir string) (string, error) {
	f, hooks, err := readHooksFile(path)
	if err != nil {
		return "", err
	}
	top := f.Top
	for _, s := range specs {
		if blockingEvent(s.Event) {
			return "", fmt.Errorf("refusing to register %s: a blocking event would let a git-convo bug block Cursor", s.Event)
		}
		var entries []json.RawMessage
		if raw, ok := hooks.Get(s.Event); ok {
			if err := json.Unmarshal(raw, &entries); err != nil {
				return "", fmt.Errorf("%w: %s: hooks.%s is not a list (fix or move it)", ErrMalformedHooksJSON, path, s.Event)
			}
		}
		var kept []json.RawMessage
		for _, e := range entries {
			if !isOurs(e) {
				kept = append(kept, e)
			}
		}
		ours, _ := json.Marshal(struct {
			Command string `json:"command"`
			Timeout int    `json:"timeout,omitempty"`
		}{CaptureCommand(bin, s.Event), s.Timeout})
		kept = append(kept, ours)
		list, _ := json.Marshal(kept)
		hooks.Set(s.Event, list)
	}
	if _, ok := top.Get("version"); !ok {
		top.SetFirst("version", json.RawMessage("1"))
	}
	top.Set("hooks", hooks.Marshal())
	return f.Save(func(out []byte) error {
		return filebackup.Save(backupDir, backupKind, path, f.Existing, out)
	})
}

// UninstallHooksJSON removes git-convo's entries from the hooks.json at path.
// When the file is exactly as git-convo's last install left it, the bytes
// from before that install come back (or the file goes, if install created
// it); otherwise git-convo's entries and event lists left empty are removed,
// and a file left with nothing but version and empty hooks is deleted. It
// returns restored, removed, unchanged or not present.
func UninstallHooksJSON(path, backupDir string) (string, error) {
	f, hooks, err := readHooksFile(path)
	if err != nil {
		return "", err
	}
	if f.Existing == nil {
		return "not present", nil
	}
	top := f.Top
	if res, err := filebackup.Restore(backupDir, backupKind, path, f.Existing); err != nil || res != "" {
		return res, err
	}
	for _, ev := range hooks.Keys() {
		var entries []json.RawMessage
		if raw, _ := hooks.Get(ev); json.Unmarshal(raw, &entries) != nil {
			continue
		}
		var kept []json.RawMessage
		for _, e := range entries {
			if !isOurs(e) {
				kept = append(kept, e)
			}
		}
		if len(kept) == len(entries) {
			continue
		}
		if len(kept) == 0 {
			hooks.Del(ev)
			continue
		}
		list, _ := json.Marshal(kept)
		hooks.Set(ev, list)
	}
	if _, ok := top.Get("hooks"); ok {
		top.Set("hooks", hooks.Marshal())
	}
	if hooks.Len() == 0 && top.OnlyKeys("version", "hooks") {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		return "removed (the file held nothing else)", nil
	}
	res, err := f.Save(nil)
	if res == "updated" {
		res = "removed"
	}
	return res, err
}
