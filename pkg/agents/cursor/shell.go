package cursor

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// ShellCommit returns the commit the agent made by running git commit in
// its terminal, when this payload shows one: afterShellExecution (command,
// output, cwd) or postToolUse of the shell tool (tool_input.command,
// tool_output). Cursor sends no exit code, so git's own summary line
// ("[main abc1234] subject") in the output is the proof that the commit was
// made; a failed or empty commit prints none and yields nil.
func (p *Payload) ShellCommit() *source.AgentCommit {
	command, output, dir := p.Command, p.Output, p.Cwd
	if isShellTool(p.ToolName) {
		command, output = p.ToolInput.str("command"), toolText(p.ToolOutput)
		if dir == "" {
			dir = p.ToolInput.str("working_directory", "cwd")
		}
	}
	hash := source.ShellCommit(command, output)
	if hash == "" {
		return nil
	}
	dir = NormalizeFSPath(dir)
	if len(p.WorkspaceRoots) > 0 && !isAbsAny(dir) {
		// No cwd, or one relative to the workspace.
		dir = filepath.Join(NormalizeFSPath(p.WorkspaceRoots[0]), dir)
	}
	if dir == "" {
		return nil
	}
	return &source.AgentCommit{Dir: dir, Hash: hash}
}

// isShellTool: Cursor's terminal tool, by the names it has had.
func isShellTool(name string) bool {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "")) {
	case "shell", "runterminalcmd", "terminal", "bash":
		return true
	}
	return false
}

// toolText is a tool's output as text: tool_output is plain text, or a JSON
// object in a string (as Write's {"success":true}) whose output is a field.
func toolText(out string) string {
	var m map[string]any
	if !strings.HasPrefix(strings.TrimSpace(out), "{") || json.Unmarshal([]byte(out), &m) != nil {
		return out
	}
	var b strings.Builder
	for _, k := range []string{"output", "stdout", "stderr"} {
		if s, ok := m[k].(string); ok {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
