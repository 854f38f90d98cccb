package source

import (
	"encoding/json"
	"strings"
)

// ShellQuote quotes s for sh when it needs it: agents run hook commands
// through a shell, and a binary path may hold spaces.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CaptureEntry returns the command of an agent's hook entry
// ({"command": ...}) when it runs git-convo's capture, whatever binary path
// it names: how installers recognise their own entries among others'.
func CaptureEntry(entry json.RawMessage) (command string, ok bool) {
	var e struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(entry, &e) != nil {
		return "", false
	}
	return e.Command, IsCapture(e.Command)
}

// IsCapture reports whether a hook command runs git-convo's capture,
// whatever binary path it names.
func IsCapture(command string) bool {
	return (strings.Contains(command, "git-convo") || strings.Contains(command, "git convo")) && strings.Contains(command, " capture")
}
