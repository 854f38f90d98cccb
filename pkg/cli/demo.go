package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursordb"
)

func demoCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "demo",
		UsageText: "git convo demo [--keep]",
		Usage:     "see git-convo work in a throwaway repository",
		Description: `Builds a throwaway repository and a small Cursor database in a temporary directory,
installs the hooks there, replays two realistic agent conversations through the real
"git convo capture" hook and real commits, then prints show, log and blame. Nothing
outside the temporary directory is touched: your links database, Cursor and git
configuration are left alone.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "keep", Usage: "keep the demo directory and print its path"},
		},
		Action: func(c *cli.Context) error {
			return runDemo(c.Context, env, c.Bool("keep"))
		},
	}
}

// demoConversation is one scripted agent conversation of the demo.
type demoConversation struct {
	id, title, summary, prompt, answer string
	edits                              map[string]string // path → new content
	commit                             string            // commit subject
}

func demoScript() []demoConversation {
	return []demoConversation{
		{
			id:      "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10",
			title:   "Add rate limiting to the API",
			summary: "Added a token-bucket rate limiter and wired it into the HTTP server.",
			prompt:  "Our API gets hammered by one client. Add per-client rate limiting, 10 requests per second.",
			answer:  "I added a token bucket per client IP in api/ratelimit.go and wrapped the mux with it.",
			edits: map[string]string{
				"api/ratelimit.go": "package api\n\nimport (\n\t\"net/http\"\n\t\"sync\"\n\t\"time\"\n)\n\n// limiter hands out tokens per client: 10 a second, bursts of 20.\ntype limiter struct {\n\tmu      sync.Mutex\n\tbuckets map[string]*bucket\n}\n\ntype bucket struct {\n\ttokens float64\n\tlast   time.Time\n}\n\nfunc (l *limiter) allow(client string, now time.Time) bool {\n\tl.mu.Lock()\n\tdefer l.mu.Unlock()\n\tb := l.buckets[client]\n\tif b == nil {\n\t\tb = &bucket{tokens: 20, last: now}\n\t\tl.buckets[client] = b\n\t}\n\tb.tokens = min(20, b.tokens+now.Sub(b.last).Seconds()*10)\n\tb.last = now\n\tif b.tokens < 1 {\n\t\treturn false\n\t}\n\tb.tokens--\n\treturn true\n}\n\n// RateLimit rejects clients over their budget with 429.\nfunc RateLimit(next http.Handler) http.Handler {\n\tl := &limiter{buckets: map[string]*bucket{}}\n\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\tif !l.allow(r.RemoteAddr, time.Now()) {\n\t\t\thttp.Error(w, \"slow down\", http.StatusTooManyRequests)\n\t\t\treturn\n\t\t}\n\t\tnext.ServeHTTP(w, r)\n\t})\n}\n",
				"api/server.go":    "package api\n\nimport \"net/http\"\n\n// Handler is the API's HTTP handler.\nfunc Handler() http.Handler {\n\tmux := http.NewServeMux()\n\tmux.HandleFunc(\"/items\", listItems)\n\treturn RateLimit(mux)\n}\n",
			},
			commit: "api: rate-limit clients to 10 requests a second",
		},
		{
			id:      "8b2e4d17-51a3-4c9f-b0d2-6e7f9a1c3b58",
			title:   "Fix off-by-one in pagination",
			summary: "The last item of every page was dropped; fixed the slice bound and added a test.",
			prompt:  "Page 2 of /items skips an item. Find the bug.",
			answer:  "The end index excluded the last element: items[start:end-1] should be items[start:end].",
			edits: map[string]string{
				"api/items.go": "package api\n\nimport (\n\t\"encoding/json\"\n\t\"net/http\"\n\t\"strconv\"\n)\n\nconst pageSize = 10\n\nfunc listItems(w http.ResponseWriter, r *http.Request) {\n\tpage, _ := strconv.Atoi(r.URL.Query().Get(\"page\"))\n\tstart := max(page-1, 0) * pageSize\n\tend := min(start+pageSize, len(items))\n\tjson.NewEncoder(w).Encode(items[min(start, end):end])\n}\n\nvar items = []string{\"a\", \"b\", \"c\"}\n",
			},
			commit: "api: fix the page bound that dropped the last item",
		},
	}
}

func runDemo(ctx context.Context, env *Env, keep bool) error {
	root, err := os.MkdirTemp("", "git-convo-demo-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(root)
	}
	d := &demo{env: env, root: root, repo: filepath.Join(root, "shop-api")}
	out := env.Stdout
	step := func(format string, args ...any) {
		fmt.Fprintf(out, "\n\033[1m==> %s\033[0m\n", fmt.Sprintf(format, args...))
	}
	if env.Getenv("NO_COLOR") != "" || !env.StdoutTTY {
		step = func(format string, args ...any) { fmt.Fprintf(out, "\n==> %s\n", fmt.Sprintf(format, args...)) }
	}
	if err := d.setup(ctx); err != nil {
		return err
	}
	step("A repository with git-convo installed (%s)", d.repo)
	if err := d.convo(ctx, "install", "--cursor=project"); err != nil {
		return err
	}
	script := demoScript()
	for i, conv := range script {
		step("Cursor's agent: %q", conv.prompt)
		if err := d.agentSession(ctx, conv); err != nil {
			return err
		}
		fmt.Fprintf(out, "(the agent edited %s; the hooks recorded it)\n", strings.Join(sortedKeys(conv.edits), ", "))
		if err := d.git(ctx, append([]string{"add", "--"}, sortedKeys(conv.edits)...)...); err != nil {
			return err
		}
		if err := d.git(ctx, "commit", "-q", "-m", conv.commit); err != nil {
			return err
		}
		if i == 0 {
			step("You edit the README by hand and commit: no conversation behind it")
			if err := os.WriteFile(filepath.Join(d.repo, "README.md"), []byte("# shop-api\n\nRate-limited to 10 requests a second per client.\n"), 0o644); err != nil {
				return err
			}
			if err := d.git(ctx, "commit", "-q", "-am", "docs: mention the rate limit"); err != nil {
				return err
			}
		}
	}
	step("git convo show HEAD~2")
	if err := d.convo(ctx, "show", "HEAD~2"); err != nil {
		return err
	}
	step("git convo log")
	if err := d.convo(ctx, "log"); err != nil {
		return err
	}
	step("git convo blame api/server.go")
	if err := d.convo(ctx, "blame", "api/server.go"); err != nil {
		return err
	}
	step("Next")
	fmt.Fprintln(out, "In your own repository: git convo install (Cursor's hooks, and Claude Code's when it is installed),")
	fmt.Fprintln(out, "then work with the agent and commit.")
	if keep {
		fmt.Fprintf(out, "The demo is kept in %s (GIT_CONVO_DB=%s).\n", root, d.linksDB())
	}
	return nil
}

type demo struct {
	env  *Env
	root string
	repo string
}

func (d *demo) linksDB() string  { return filepath.Join(d.root, "links.sqlite") }
func (d *demo) cursorDB() string { return filepath.Join(d.root, "cursor", "state.vscdb") }

// environ isolates every child from the user's configuration: its own git
// config, links database and Cursor database, and synchronous hooks so the
// output below each step is complete.
func (d *demo) environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "CURSOR_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"GIT_CONFIG_GLOBAL="+filepath.Join(d.root, "gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONVO_DB="+d.linksDB(),
		"CURSOR_DB_PATH="+d.cursorDB(),
		"GIT_CONVO_SYNC=1",
		"GIT_PAGER=cat",
		"HOME="+d.root,
	)
}

func (d *demo) setup(ctx context.Context) error {
	cfg := "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
	if err := os.WriteFile(filepath.Join(d.root, "gitconfig"), []byte(cfg), 0o600); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(d.repo, "api"), 0o755); err != nil {
		return err
	}
	if err := d.git(ctx, "init", "-q"); err != nil {
		return err
	}
	files := map[string]string{
		"README.md":     "# shop-api\n",
		"api/server.go": "package api\n\nimport \"net/http\"\n\n// Handler is the API's HTTP handler.\nfunc Handler() http.Handler {\n\tmux := http.NewServeMux()\n\tmux.HandleFunc(\"/items\", listItems)\n\treturn mux\n}\n",
		"api/items.go":  "package api\n\nimport (\n\t\"encoding/json\"\n\t\"net/http\"\n\t\"strconv\"\n)\n\nconst pageSize = 10\n\nfunc listItems(w http.ResponseWriter, r *http.Request) {\n\tpage, _ := strconv.Atoi(r.URL.Query().Get(\"page\"))\n\tstart := max(page-1, 0) * pageSize\n\tend := min(start+pageSize, len(items))\n\tjson.NewEncoder(w).Encode(items[min(start, end) : end-1])\n}\n\nvar items = []string{\"a\", \"b\", \"c\"}\n",
	}
	for p, body := range files {
		if err := os.WriteFile(filepath.Join(d.repo, p), []byte(body), 0o644); err != nil {
			return err
		}
	}
	if err := d.git(ctx, "add", "-A"); err != nil {
		return err
	}
	// The project existed before today's conversations.
	yesterday := "GIT_AUTHOR_DATE=" + d.env.Now().Add(-24*time.Hour).Format(time.RFC3339)
	if err := d.gitEnv(ctx, []string{yesterday, strings.Replace(yesterday, "AUTHOR", "COMMITTER", 1)}, "commit", "-q", "-m", "Initial API"); err != nil {
		return err
	}
	db, err := cursordb.Open(d.cursorDB(), nil) // empty, in Cursor's schema
	if err != nil {
		return err
	}
	return db.Close()
}

func (d *demo) git(ctx context.Context, args ...string) error { return d.gitEnv(ctx, nil, args...) }

func (d *demo) gitEnv(ctx context.Context, extra []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = d.repo, append(d.environ(), extra...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// convo runs this git-convo binary as the user would, output to the terminal.
func (d *demo) convo(ctx context.Context, args ...string) error {
	if d.env.StdoutTTY && d.env.Getenv("NO_COLOR") == "" && args[0] != "install" {
		args = append([]string{args[0], "--color=always"}, args[1:]...)
	}
	cmd := exec.CommandContext(ctx, d.env.Executable, args...)
	cmd.Dir, cmd.Env = d.repo, d.environ()
	cmd.Stdout, cmd.Stderr = d.env.Stdout, d.env.Stderr
	return cmd.Run()
}

// agentSession replays what Cursor's hooks send for one conversation.
func (d *demo) agentSession(ctx context.Context, conv demoConversation) error {
	start := time.Now()
	send := func(event string, extra map[string]any) error {
		payload := map[string]any{
			"conversation_id": conv.id, "generation_id": conv.id[:8] + "-gen-1", "hook_event_name": event,
			"workspace_roots": []string{d.repo}, "model": "claude-4.5-sonnet", "cursor_version": "2.5.26",
			"user_email": nil, "transcript_path": nil,
		}
		for k, v := range extra {
			payload[k] = v
		}
		body, _ := json.Marshal(payload)
		cmd := exec.CommandContext(ctx, d.env.Executable, "capture")
		cmd.Dir, cmd.Env, cmd.Stdin = d.repo, d.environ(), bytes.NewReader(body)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("capture %s: %v: %s", event, err, out)
		}
		return nil
	}
	if err := send("sessionStart", map[string]any{"composer_mode": "agent"}); err != nil {
		return err
	}
	if err := send("beforeSubmitPrompt", map[string]any{"prompt": conv.prompt, "attachments": []any{}}); err != nil {
		return err
	}
	for _, p := range sortedKeys(conv.edits) {
		abs := filepath.Join(d.repo, filepath.FromSlash(p))
		old, _ := os.ReadFile(abs)
		if err := os.WriteFile(abs, []byte(conv.edits[p]), 0o644); err != nil {
			return err
		}
		if err := send("afterFileEdit", map[string]any{"file_path": abs,
			"edits": []map[string]string{{"old_string": string(old), "new_string": conv.edits[p]}}}); err != nil {
			return err
		}
	}
	if err := send("afterAgentResponse", map[string]any{"text": conv.answer}); err != nil {
		return err
	}
	// Cursor writes the conversation (title, summary, edited files) into its
	// database as it goes; the stop hook then reads it from there.
	if err := writeDemoConversation(d.cursorDB(), conv, d.repo, start, time.Now()); err != nil {
		return err
	}
	return send("stop", map[string]any{"status": "completed", "loop_count": 0})
}

// writeDemoConversation writes one conversation into Cursor's database, as
// Cursor does while the agent works (cursordb: the tests' writer).
func writeDemoConversation(path string, c demoConversation, repo string, start, end time.Time) error {
	conv := cursordb.Conversation{ID: c.id, Title: c.title, Summary: c.summary, Model: "claude-4.5-sonnet",
		Status: "completed", Mode: "agent", Created: start, Updated: end,
		Messages: []cursordb.Message{{User: true, Text: c.prompt, At: start}, {Text: c.answer, At: end}}}
	for _, p := range sortedKeys(c.edits) {
		conv.Edited = append(conv.Edited, filepath.Join(repo, filepath.FromSlash(p)))
	}
	return cursordb.Write(path, conv)
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
