// Package trailers finds the agents that other tools name in a commit
// message's trailers: aider's and Claude Code's Co-authored-by, Agent
// Note's Agentnote-Session, Entire's Entire-Checkpoint, Amp's
// Amp-Thread-ID. A trailer says an agent took part in the commit, not
// which lines it wrote: it is evidence of kind "commit trailer", the
// weakest but overlap.
package trailers

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Agent is one agent a trailer names.
type Agent struct {
	Tool    string `json:"tool"`              // claude, aider, cursor, entire, agentnote, …
	Name    string `json:"name"`              // as the trailer spells it
	Model   string `json:"model,omitempty"`   // aider's (model), Claude's "Claude Opus 4.5"
	Session string `json:"session,omitempty"` // Agentnote-Session, Entire-Checkpoint, Amp-Thread-ID
	Trailer string `json:"trailer"`           // the trailer's key
}

// maxMessage bounds what is read of a message: its end, where trailers are.
const maxMessage = 64 << 10

var (
	trailerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9-]{0,63}):\s*(.*)$`) })
	identRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*?)\s*<([^<>]*)>$`) })
	aiderRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^aider(?:\s*\(([^()]*)\))?$`) })
)

// coAuthors maps who a Co-authored-by trailer names to the agent's tool:
// an e-mail domain or address, else a name (case-insensitive prefix).
var coAuthorEmails = []struct{ suffix, tool string }{
	{"@anthropic.com", "claude"},
	{"@aider.chat", "aider"},
	{"cursoragent@cursor.com", "cursor"},
	{"@ampcode.com", "amp"},
	{"@openai.com", "codex"},
	{"devin-ai-integration[bot]@users.noreply.github.com", "devin"},
	{"copilot@users.noreply.github.com", "copilot"},
	{"+copilot@users.noreply.github.com", "copilot"},
}

var coAuthorNames = []struct{ prefix, tool string }{
	{"claude", "claude"},
	{"cursor agent", "cursor"},
	{"copilot", "copilot"},
	{"codex", "codex"},
	{"gemini", "gemini"},
	{"opencode", "opencode"},
	{"devin", "devin"},
	{"junie", "junie"},
}

// Parse returns the agents msg's trailers name (the last paragraph's
// "Key: value" lines), each once. A person's Co-authored-by is no agent.
func Parse(msg string) []Agent {
	clipped := len(msg) > maxMessage
	if clipped {
		msg = msg[len(msg)-maxMessage:]
		_, msg, _ = strings.Cut(msg, "\n") // from the first whole line
	}
	msg = strings.TrimRight(strings.ReplaceAll(msg, "\r\n", "\n"), "\n ")
	if i := strings.LastIndex(msg, "\n\n"); i >= 0 {
		msg = msg[i+2:]
	} else if !clipped {
		return nil // a subject alone has no trailers
	}
	var out []Agent
	seen := map[Agent]bool{}
	for _, line := range strings.Split(msg, "\n") {
		m := trailerRe().FindStringSubmatch(strings.TrimSpace(line))
		if m == nil || !plain(m[2]) {
			continue
		}
		a, ok := agent(m[1], strings.TrimSpace(m[2]))
		if ok && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

func agent(key, value string) (Agent, bool) {
	if value == "" || len(value) > 512 {
		return Agent{}, false
	}
	switch strings.ToLower(key) {
	case "agentnote-session":
		return Agent{Tool: "agentnote", Name: "Agent Note", Session: value, Trailer: key}, true
	case "entire-checkpoint":
		return Agent{Tool: "entire", Name: "Entire", Session: value, Trailer: key}, true
	case "amp-thread-id":
		return Agent{Tool: "amp", Name: "Amp", Session: value, Trailer: key}, true
	case "co-authored-by":
		return coAuthor(key, value)
	}
	return Agent{}, false
}

func coAuthor(key, value string) (Agent, bool) {
	name, email := value, ""
	if m := identRe().FindStringSubmatch(value); m != nil {
		name, email = m[1], strings.ToLower(m[2])
	}
	a := Agent{Name: name, Trailer: key}
	if m := aiderRe().FindStringSubmatch(name); m != nil {
		a.Tool, a.Model = "aider", strings.TrimSpace(m[1])
		return a, true
	}
	for _, e := range coAuthorEmails {
		if email != "" && strings.HasSuffix(email, e.suffix) {
			a.Tool = e.tool
			break
		}
	}
	if a.Tool == "" {
		low := strings.ToLower(name)
		for _, n := range coAuthorNames {
			if low == n.prefix || strings.HasPrefix(low, n.prefix+" ") || strings.HasPrefix(low, n.prefix+"[bot]") {
				a.Tool = n.tool
				break
			}
		}
	}
	if a.Tool == "" {
		return Agent{}, false
	}
	// "Claude Opus 4.5" names the model; "Claude" alone does not.
	if a.Tool == "claude" && strings.Contains(name, " ") {
		a.Model = name
	}
	return a, true
}

func plain(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}
