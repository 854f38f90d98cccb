package codex

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// TestScanHookCommands: the hook commands of config.toml's [hooks], in
// each form TOML allows (the documented array-of-tables form, inline
// arrays under [hooks], dotted keys, quoted keys and strings), among other
// settings; anything else named "command" is not a hook's.
func TestScanHookCommands(t *testing.T) {
	for _, c := range []struct {
		name, toml string
		want       map[string][]string
	}{
		{"documented form", `model = "gpt-5.5"
approval_policy = "on-request" # a comment

[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py"'
timeout = 30
statusMessage = "Checking Bash command"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "'/opt/git convo/git-convo' capture --agent codex"
timeout = 10

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { TOKEN = "x" }
`, map[string][]string{
			"PreToolUse": {`/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py"`},
			"Stop":       {"'/opt/git convo/git-convo' capture --agent codex"},
		}},
		{"inline arrays under [hooks]", `[hooks]
SessionStart = [{ hooks = [{ type = "command", command = "git-convo capture --agent codex", timeout = 5 }] }]
PostToolUse = [
  { matcher = "apply_patch", hooks = [
    { type = "command", command = "git-convo capture --agent codex" },
    { type = "command", command = "notify \"done\"\t" },
  ] },
]
`, map[string][]string{
			"SessionStart": {"git-convo capture --agent codex"},
			"PostToolUse":  {"git-convo capture --agent codex", "notify \"done\"\t"},
		}},
		{"dotted and quoted keys, multi-line string", `hooks."UserPromptSubmit" = [{ hooks = [{ command = """
git-convo capture \
  --agent codex""" }] }]
[[ hooks . 'Stop' ]]
hooks = [ { 'command' = 'git-convo capture --agent codex' } ]
`, map[string][]string{
			"UserPromptSubmit": {"git-convo capture --agent codex"},
			"Stop":             {"git-convo capture --agent codex"},
		}},
		{"not a hook's command", `[hooks]
command = "git-convo capture --agent codex"
[hooks.Stop]
command = "git-convo capture --agent codex"
`, map[string][]string{}},
		{"unreadable past a point: what came before", `[[hooks.Stop.hooks]]
command = "git-convo capture --agent codex"
[[hooks.PostToolUse.hooks]]
command = "unterminated
`, map[string][]string{"Stop": {"git-convo capture --agent codex"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := scanHookCommands(c.toml); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

func FuzzScanHookCommands(f *testing.F) {
	f.Add("[[hooks.Stop.hooks]]\ncommand = \"git-convo capture --agent codex\"\n")
	f.Add("[hooks]\nStop = [{ hooks = [{ command = '''x''' }] }]\n")
	f.Add("a.\"b\" = { c = [1, 2.5, true, 1979-05-27T07:32:00Z], d = \"\\u00e9\\U0001F600\" }\n")
	f.Fuzz(func(t *testing.T, s string) {
		scanHookCommands(s) // never panics nor loops
	})
}

// TestCheckConfigTOMLHooks: hooks the user wrote in config.toml's [hooks]
// are installed hooks to doctor, alone or with hooks.json's, and a
// config.toml with only others' hooks leaves them missing.
func TestCheckConfigTOMLHooks(t *testing.T) {
	hook := func(events ...string) string {
		var b strings.Builder
		for _, e := range events {
			b.WriteString("[[hooks." + e + "]]\n[[hooks." + e + ".hooks]]\ntype = \"command\"\ncommand = \"'/opt/git convo/git-convo' capture --agent codex\"\ntimeout = 10\n\n")
		}
		return b.String()
	}
	all := hook("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop")
	for _, c := range []struct {
		name, user, project, hooksJSON string
		want                           source.CheckState
		detail                         string
	}{
		{"user's config.toml", "model = \"o3\"\n\n" + all, "", "", source.CheckOK, "config.toml ([hooks])"},
		{"project's config.toml", "", all, "", source.CheckOK, ".codex/config.toml ([hooks])"},
		{"some events", hook("Stop", "PostToolUse"), "", "", source.CheckPartial, "lacks [SessionStart UserPromptSubmit]"},
		{"config.toml and hooks.json together", hook("Stop", "PostToolUse"), "", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"git-convo capture --agent codex"}]}],"UserPromptSubmit":[{"hooks":[{"type":"command","command":"git-convo capture --agent codex"}]}]}}`, source.CheckOK, "config.toml ([hooks])"},
		{"others' hooks only", "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"notify-send done\"\n", "", "", source.CheckMissing, "no Codex hooks.json"},
		{"another agent's capture", strings.ReplaceAll(all, "--agent codex", "--agent claude"), "", "", source.CheckMissing, "no Codex hooks.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, top := t.TempDir(), t.TempDir()
			write := func(p, body string) {
				if body == "" {
					return
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(home, "config.toml"), c.user)
			write(filepath.Join(top, ".codex", "config.toml"), c.project)
			write(filepath.Join(home, "hooks.json"), c.hooksJSON)
			env := source.HookEnv{Getenv: func(k string) string {
				if k == "CODEX_HOME" {
					return home
				}
				return ""
			}, TopLevel: top}
			got, _ := Agent{}.CheckHooks(env)
			if got.State != c.want || !strings.Contains(got.Detail, c.detail) {
				t.Errorf("check %+v, want state %v with %q", got, c.want, c.detail)
			}
		})
	}
}
