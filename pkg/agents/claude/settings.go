package claude

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/hookcfg"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// HookSpec is one event git-convo registers in settings.json (timeouts in
// seconds).
type HookSpec = hookcfg.Spec

// EditMatcher names the tools whose PostToolUse git-convo reads: the edit
// tools, and Bash for the commits the agent runs itself.
const EditMatcher = "Edit|Write|MultiEdit|NotebookEdit|Bash"

// VSCodeEditMatcher names VS Code agent mode's file tools, for PreToolUse:
// no Claude Code tool has these names, so Claude Code never runs it, while
// VS Code, which runs Claude Code's hooks and ignores their matchers, does:
// capture keeps the files the tool will write, and diffs them at its
// PostToolUse (editFiles names files, not text).
const VSCodeEditMatcher = "editFiles|create_file|replace_string_in_file|multi_replace_string_in_file|insert_edit_into_file|apply_patch|edit_notebook_file"

// DefaultHookSpecs are the events git-convo observes. None can block Claude:
// capture always exits 0 with empty stdout. Events whose reply Claude does
// not need run async, so Claude never waits on git-convo; the prompt and
// session events stay synchronous (a short timeout bounds them) so the
// order of a conversation's events is kept.
func DefaultHookSpecs() []HookSpec {
	return []HookSpec{
		{Event: "SessionStart", Timeout: 5},
		{Event: "UserPromptSubmit", Timeout: 5},
		{Event: "PreToolUse", Matcher: VSCodeEditMatcher, Timeout: 5},
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

// config is settings.json's hooks, as package hookcfg merges them.
func config() hookcfg.Config {
	return hookcfg.Config{Kind: "claude-settings", Malformed: ErrMalformed, Ours: isOurs}
}

// Install merges git-convo's hooks into the settings file at path, keeping
// every other key, group and handler; ours are replaced. It returns
// created, updated or unchanged (hookcfg.Config.Install).
func Install(path, command string, specs []HookSpec, backupDir string) (string, error) {
	return config().Install(path, command, specs, backupDir)
}

// Uninstall takes git-convo's hooks out of the settings file at path: the
// bytes from before the install when nothing else changed it. It returns
// restored, removed, unchanged or not present.
func Uninstall(path, backupDir string) (string, error) { return config().Uninstall(path, backupDir) }

// Installed reports which of specs' events have git-convo's handler in the
// settings file at path (doctor).
func Installed(path string, specs []HookSpec) (have, missing []string, err error) {
	return config().Installed(path, specs)
}
