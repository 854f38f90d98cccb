package cursor

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/atomicfile"
)

// HookSpec is one event git-convo registers in hooks.json.
type HookSpec struct {
	Event   string
	Timeout int // seconds
}

// DefaultHookSpecs are the events git-convo observes. None is a permission or
// fail-closed event (preToolUse, beforeShellExecution, beforeMCPExecution,
// beforeReadFile): a bug in an observer must never block the user.
func DefaultHookSpecs() []HookSpec {
	return []HookSpec{
		{"sessionStart", 5}, {"beforeSubmitPrompt", 5}, {"afterFileEdit", 5}, {"postToolUse", 5},
		{"afterAgentResponse", 5}, {"stop", 10}, {"sessionEnd", 5},
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
	return shellQuote(bin) + " capture --event " + event
}

// isOurs recognises git-convo's entries, whatever binary path they name.
func isOurs(entry json.RawMessage) bool {
	var e struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(entry, &e) != nil {
		return false
	}
	return (strings.Contains(e.Command, "git-convo") || strings.Contains(e.Command, "git convo")) &&
		strings.Contains(e.Command, " capture")
}

// object is a JSON object that keeps its keys' order, so merging does not
// reorder or drop what other tools wrote.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func parseObject(b []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("the top level is not a JSON object")
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := o.vals[key]; !dup {
			o.keys = append(o.keys, key)
		}
		o.vals[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	return o, nil
}

func (o *object) set(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

func (o *object) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// readHooksFile returns the file's top object and hooks object (both empty
// for a missing or empty file), or ErrMalformedHooksJSON.
func readHooksFile(path string) (top, hooks *object, existing []byte, err error) {
	existing, err = os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, nil, err
	}
	top = &object{vals: map[string]json.RawMessage{}}
	hooks = &object{vals: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(existing)) == 0 {
		return top, hooks, existing, nil
	}
	if top, err = parseObject(existing); err != nil {
		return nil, nil, existing, fmt.Errorf("%w: %s: %v (fix or move it; git-convo will not overwrite it)", ErrMalformedHooksJSON, path, err)
	}
	if raw, ok := top.vals["hooks"]; ok {
		if hooks, err = parseObject(raw); err != nil {
			return nil, nil, existing, fmt.Errorf("%w: %s: \"hooks\" is not an object (fix or move it; git-convo will not overwrite it)", ErrMalformedHooksJSON, path)
		}
	}
	return top, hooks, existing, nil
}

// InstallHooksJSON merges git-convo's capture hooks into the hooks.json at
// path: other tools' entries and unknown keys are kept in order, ours are
// replaced, version is set to 1 when absent. A file that would not change is
// not rewritten. It returns what happened: created, updated or unchanged.
// When it changes a file that held none of git-convo's entries, the file's
// bytes are kept in backupDir ("": not kept), so uninstalling can put them
// back exactly as they were.
func InstallHooksJSON(path, bin string, specs []HookSpec, backupDir string) (string, error) {
	top, hooks, existing, err := readHooksFile(path)
	if err != nil {
		return "", err
	}
	original := existing
	if hasOurs(hooks) {
		original = nil // already installed: the bytes are not the user's alone
	}
	for _, s := range specs {
		if blockingEvent(s.Event) {
			return "", fmt.Errorf("refusing to register %s: a blocking event would let a git-convo bug block Cursor", s.Event)
		}
		var entries []json.RawMessage
		if raw, ok := hooks.vals[s.Event]; ok {
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
		hooks.set(s.Event, list)
	}
	if _, ok := top.vals["version"]; !ok {
		top.keys = append([]string{"version"}, top.keys...)
		top.vals["version"] = json.RawMessage("1")
	}
	top.set("hooks", hooks.marshal())
	if original != nil && backupDir != "" {
		if _, err := os.Stat(backupPath(backupDir, path)); os.IsNotExist(err) {
			if err := os.MkdirAll(backupDir, 0o700); err != nil {
				return "", err
			}
			if err := atomicfile.Write(backupPath(backupDir, path), original, 0o600); err != nil {
				return "", err
			}
		}
	}
	return writeIfChanged(path, existing, top.marshal())
}

// backupPath is where the bytes the hooks.json at path had before git-convo
// added its entries are kept (named by a hash of the path).
func backupPath(dir, path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(dir, "hooks-"+hex.EncodeToString(sum[:8])+".json")
}

// hasOurs reports whether any event lists one of git-convo's entries.
func hasOurs(hooks *object) bool {
	for _, ev := range hooks.keys {
		var entries []json.RawMessage
		if json.Unmarshal(hooks.vals[ev], &entries) != nil {
			continue
		}
		for _, e := range entries {
			if isOurs(e) {
				return true
			}
		}
	}
	return false
}

// restoreOriginal writes back the bytes kept at install when they hold the
// same JSON as the uninstalled file (nothing else changed meanwhile); the
// kept copy goes either way.
func restoreOriginal(path, backupDir string, existing []byte, uninstalled json.RawMessage) (bool, error) {
	if backupDir == "" {
		return false, nil
	}
	bp := backupPath(backupDir, path)
	orig, err := os.ReadFile(bp)
	if err != nil {
		return false, nil
	}
	defer os.Remove(bp)
	var a, b any
	if json.Unmarshal(orig, &a) != nil || json.Unmarshal(uninstalled, &b) != nil || !jsonEqual(a, b) {
		return false, nil
	}
	if bytes.Equal(orig, existing) {
		return true, nil
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return true, atomicfile.Write(path, orig, mode)
}

// UninstallHooksJSON removes git-convo's entries from the hooks.json at path,
// and event lists left empty. When nothing else changed since install, the
// file gets back the exact bytes kept in backupDir; otherwise a file left
// with nothing but version and empty hooks is deleted. It returns removed,
// unchanged or not present.
func UninstallHooksJSON(path, backupDir string) (string, error) {
	top, hooks, existing, err := readHooksFile(path)
	if err != nil {
		return "", err
	}
	if existing == nil {
		return "not present", nil
	}
	for _, ev := range append([]string{}, hooks.keys...) {
		var entries []json.RawMessage
		if json.Unmarshal(hooks.vals[ev], &entries) != nil {
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
			hooks.del(ev)
			continue
		}
		list, _ := json.Marshal(kept)
		hooks.set(ev, list)
	}
	if _, ok := top.vals["hooks"]; ok {
		top.set("hooks", hooks.marshal())
	}
	if restored, err := restoreOriginal(path, backupDir, existing, top.marshal()); err != nil || restored {
		return "removed (the file is back as it was)", err
	}
	if len(hooks.keys) == 0 && onlyKeys(top, "version", "hooks") {
		if err := removeFile(path); err != nil {
			return "", err
		}
		return "removed (the file held nothing else)", nil
	}
	res, err := writeIfChanged(path, existing, top.marshal())
	if res == "updated" {
		res = "removed"
	}
	return res, err
}

// writeIfChanged writes indented JSON atomically (temp file + rename, the
// file's mode kept), unless the content is unchanged.
func writeIfChanged(path string, existing []byte, compact json.RawMessage) (string, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return "", err
	}
	out.WriteByte('\n')
	if existing != nil {
		if bytes.Equal(existing, out.Bytes()) {
			return "unchanged", nil
		}
		// Same content, other formatting: leave the user's formatting alone.
		var a, b any
		if json.Unmarshal(existing, &a) == nil && json.Unmarshal(out.Bytes(), &b) == nil && jsonEqual(a, b) {
			return "unchanged", nil
		}
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := atomicfile.Write(path, out.Bytes(), mode); err != nil {
		return "", err
	}
	if existing == nil {
		return "created", nil
	}
	return "updated", nil
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// shellQuote quotes s for sh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// onlyKeys reports whether o has no key but the given ones.
func onlyKeys(o *object, keys ...string) bool {
	for _, k := range o.keys {
		found := false
		for _, want := range keys {
			found = found || k == want
		}
		if !found {
			return false
		}
	}
	return true
}

func removeFile(path string) error { return os.Remove(path) }
