package codex

import (
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/formats/applypatch"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/position"
)

// ParseHook reads one Codex hook payload (codex-rs/hooks/schema: session_id,
// turn_id, transcript_path, cwd, hook_event_name, model; prompt;
// tool_name, tool_input, tool_response, tool_use_id; last_assistant_message).
// Every field is optional, and a field of an unexpected type is ignored.
// An apply_patch's patch (tool_input.command) gives the files, the added
// lines and, hunk by hunk, the writes located on disk; a shell command that
// ran git commit gives the commit the agent made itself.
func ParseHook(data []byte) (source.Activity, error) {
	raw, err := source.DecodeObject(data, "Codex sends the event as JSON on stdin")
	if err != nil {
		return source.Activity{}, err
	}
	a, s := source.CommonFields(raw)
	a.GenerationID = s("turn_id")
	cwd := s("cwd")
	switch a.Event {
	case "UserPromptSubmit":
		a.Prompt = s("prompt")
	case "Stop":
		a.Response = s("last_assistant_message")
		a.EndsTurn = true
	case "PostToolUse":
		tool := s("tool_name")
		input := source.JSONObject(raw["tool_input"])
		a.ToolCall = s("tool_use_id")
		switch {
		case tool == "apply_patch":
			patch, _ := input["command"].(string)
			if patch == "" {
				patch, _ = input["input"].(string)
			}
			addPatch(&a, patch)
		case isShell(tool):
			if h := source.ShellCommit(command(input["command"]), source.ToolOutput(raw["tool_response"])); h != "" {
				a.Commit = &source.AgentCommit{Dir: cwd, Hash: h}
			}
		}
	}
	return a, nil
}

// addPatch adds a patch's files, added text and writes to a.
func addPatch(a *source.Activity, patch string) {
	for _, f := range applypatch.Parse(patch) {
		if f.Op == applypatch.Delete {
			continue
		}
		p := f.Target()
		a.Files = append(a.Files, p)
		a.ToolEdit = true
		if added := f.Added(); len(added) > 0 {
			if a.Added == nil {
				a.Added = map[string][]string{}
			}
			a.Added[p] = append(a.Added[p], added...)
		}
		if ws := f.Writes(); len(ws) > 0 {
			if a.Writes == nil {
				a.Writes = map[string][]position.Write{}
			}
			a.Writes[p] = append(a.Writes[p], ws...)
		}
	}
}

// isShell names Codex's shell tools: Bash in its hooks, exec_command and
// shell in its rollouts.
func isShell(tool string) bool {
	switch tool {
	case "Bash", "exec_command", "shell", "local_shell", "shell_command":
		return true
	}
	return false
}

// command is a shell tool's command: a string, or an argv whose last
// element is the script (["bash", "-lc", "git commit ..."]).
func command(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}
