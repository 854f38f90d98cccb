package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// jsonLines decodes one JSON object per line (a read command's --json).
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var all []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, line)
		}
		all = append(all, m)
	}
	return all
}

// fields is the values of keys in m, an absent key as its zero value (the
// MCP tools omit empty fields, the CLI's JSON keeps them).
func fields(m map[string]any, keys ...string) string {
	var b strings.Builder
	for _, k := range keys {
		v := m[k]
		if v == nil || v == "" || v == float64(0) {
			v = ""
		}
		fmt.Fprintf(&b, "%s=%v ", k, v)
	}
	return b.String()
}

// writersOf names other tools' writers (otherTools), sorted.
func writersOf(ws []map[string]any) string {
	var out []string
	for _, w := range ws {
		out = append(out, fields(w, "source", "tool", "session", "person", "conversation", "lines"))
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// each is the objects of a JSON array field.
func each(m map[string]any, key string) []map[string]any {
	var out []map[string]any
	list, _ := m[key].([]any)
	for _, v := range list {
		if o, ok := v.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// ids is the value of key in each object, sorted when sorted is set.
func ids(objs []map[string]any, key string, sorted bool) string {
	var out []string
	for _, o := range objs {
		if s, ok := o[key].(string); ok && s != "" {
			out = append(out, s)
		}
	}
	if sorted {
		sort.Strings(out)
	}
	return strings.Join(out, ",")
}

// TestMCPAnswersAsCLI: every MCP tool gives the answer of its CLI twin on
// the same data, tool by tool, with the clone's own conversations and a
// teammate's known only from shared notes.
func TestMCPAnswersAsCLI(t *testing.T) {
	_, bare := newTeam(t)
	a := cloneAs(t, bare, "a")
	b := cloneAs(t, bare, "b")
	a.convo(a.dir, "share", "on")
	const team, own = "77777777-2222-4333-8444-555555555555", "88888888-2222-4333-8444-555555555555"
	a.conversation(t, team, "Paginate the search API", "Added cursor-based pagination.", "paginate", "search.go",
		"package search\n\nfunc Page(after string) []Hit {\n\treturn query(after)\n}\n")
	teamCommit := a.commit(a.dir, "search: paginate", "search.go")
	a.run(a.dir, "git", "push", "-q", "origin", "main")
	b.run(b.dir, "git", "pull", "-q", "--ff-only")
	b.convo(b.dir, "share", "on")
	b.conversation(t, own, "Cache the hits", "An LRU cache of hits.", "cache hits", "cache.go",
		"package search\n\nvar hits = newLRU(128)\n")
	ownCommit := b.commit(b.dir, "search: cache hits", "cache.go")
	// Other tools' records (docs/interop.md): a commit git-ai's note gives
	// a line of to own's session, one to a session git-convo does not know,
	// and one to a person.
	b.write(b.dir, "hand.go", "package search\n\nfunc Hand() {}\n\nvar x = 1\n")
	handCommit := b.commit(b.dir, "search: by hand", "hand.go")
	key := gitai.SessionKey("cursor", own)
	b.addRawNote(b.dir, "refs/notes/ai", handCommit, "hand.go\n  "+key+"::t_66554433221100 1\n  s_00112233445566::t_66554433221100 3\n  h_aabbccddeeff00 5\n---\n"+
		`{"schema_version":"authorship/3.0.0","base_commit_sha":"`+handCommit+`","prompts":{},"sessions":{`+
		`"`+key+`":{"agent_id":{"tool":"cursor","id":"`+own+`","model":"gpt-5"}},`+
		`"s_00112233445566":{"agent_id":{"tool":"claude","id":"sess-1","model":"claude-sonnet-4-6"}}},`+
		`"humans":{"h_aabbccddeeff00":{"author":"Ann Lee <ann@example.com>"}}}`)

	tool := mcpClient(t, b.sandbox, b.dir)
	// Every tool the server lists has its twin below (a subtest named
	// "<tool> = <command>").
	twins := map[string]bool{}
	defer func() {
		for _, name := range mcpToolNames(t, b.sandbox, b.dir) {
			if !twins[name] {
				t.Errorf("the MCP tool %s is not held to a CLI twin here", name)
			}
		}
	}()
	run := func(name string, f func(t *testing.T)) {
		twins[strings.Fields(name)[0]] = true
		t.Run(name, f)
	}
	call := func(name string, in map[string]any) map[string]any {
		t.Helper()
		out, isErr := tool(name, in)
		if isErr {
			t.Fatalf("%s %v: %s", name, in, out)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	convKeys := []string{"id", "title", "summary", "agent", "confidence", "status", "reason", "origin", "evidence", "writtenLines", "addedLines"}

	run("get_commit_conversations = show --json", func(t *testing.T) {
		for _, c := range []string{teamCommit, ownCommit} {
			mcp := each(call("get_commit_conversations", map[string]any{"commitHash": c}), "conversations")
			shown := jsonLines(t, b.convo(b.dir, "show", "--json", c))
			cli := each(shown[0], "conversations")
			if len(mcp) != len(cli) || len(cli) != 1 {
				t.Fatalf("%s: MCP %v, CLI %v", c[:7], mcp, cli)
			}
			for i := range cli {
				if m, c := fields(mcp[i], convKeys...), fields(cli[i], convKeys...); m != c {
					t.Errorf("get_commit_conversations:\n MCP %s\n CLI %s", m, c)
				}
			}
		}
	})

	run("list_conversation_commits = conversations --json", func(t *testing.T) {
		for _, tc := range []struct {
			in   map[string]any
			args []string
		}{
			{map[string]any{}, []string{"conversations", "--json", "-n", "20"}},
			{map[string]any{"limit": 1}, []string{"conversations", "--json", "-n", "1"}},
			{map[string]any{"filePath": "search.go"}, []string{"conversations", "--json", "-n", "20", "--file", "search.go"}},
			{map[string]any{"filePath": "cache.go"}, []string{"conversations", "--json", "-n", "20", "--file", "cache.go"}},
		} {
			mcp := each(call("list_conversation_commits", tc.in), "conversations")
			cli := jsonLines(t, b.convo(b.dir, tc.args...))
			if ids(mcp, "id", false) != ids(cli, "id", false) || len(cli) == 0 {
				t.Errorf("list_conversation_commits %v: %s, %v: %s", tc.in, ids(mcp, "id", false), tc.args, ids(cli, "id", false))
				continue
			}
			for i := range cli {
				if n := float64(len(each(mcp[i], "commits"))); n != cli[i]["commits"] || fields(mcp[i], "title", "summary", "agent") != fields(cli[i], "title", "summary", "agent") {
					t.Errorf("list_conversation_commits %v:\n MCP %v\n CLI %v", tc.in, mcp[i], cli[i])
				}
			}
		}
	})

	run("get_file_context = log --json -- path, blame --json", func(t *testing.T) {
		for _, path := range []string{"search.go", "cache.go", "hand.go"} {
			mcp := call("get_file_context", map[string]any{"filePath": path})
			logged := jsonLines(t, b.convo(b.dir, "log", "--json", "--", path))
			want := map[string]string{}
			others := map[string]string{} // other tools' writers of the commit
			var hashes []string
			for _, l := range logged {
				h := l["commit"].(map[string]any)["hash"].(string)
				convs := ids(each(l, "conversations"), "id", true)
				others[h] = writersOf(each(l, "otherTools"))
				if convs != "" || others[h] != "" {
					want[h] = convs
					hashes = append(hashes, h)
				}
			}
			var got []string
			for _, fc := range each(mcp, "commits") {
				h := fc["hash"].(string)
				got = append(got, h)
				if convs := ids(each(fc, "conversations"), "id", true); convs != want[h] {
					t.Errorf("get_file_context %s, commit %s: conversations %q, log --json: %q", path, h[:7], convs, want[h])
				}
				if w := writersOf(each(fc, "otherTools")); w != others[h] {
					t.Errorf("get_file_context %s, commit %s: other tools %q, log --json: %q", path, h[:7], w, others[h])
				}
			}
			sort.Strings(got)
			sort.Strings(hashes)
			if strings.Join(got, ",") != strings.Join(hashes, ",") {
				t.Errorf("get_file_context %s: commits %v, log --json's with conversations: %v", path, got, hashes)
			}
			// Every conversation blame names as a line's writer is among the file's.
			convs := ids(each(mcp, "conversations"), "id", true)
			for _, l := range b.blameJSON(b.dir, path) {
				if l.WrittenBy != nil && !strings.Contains(convs, *l.WrittenBy) {
					t.Errorf("get_file_context %s: %s (blame's writer of line %d) is not among %s", path, *l.WrittenBy, l.Line, convs)
				}
			}
		}
	})

	t.Run("other tools' records, in both", func(t *testing.T) {
		var listed bool
		for _, cc := range each(call("list_conversation_commits", map[string]any{"conversationId": own}), "conversations") {
			for _, c := range each(cc, "commits") {
				listed = listed || c["hash"] == handCommit && c["evidence"] == "git-ai checkpoint" && c["subject"] == "search: by hand"
			}
		}
		cli := jsonLines(t, b.convo(b.dir, "conversations", "--json", "-n", "20"))
		for _, c := range cli {
			if c["id"] == own && c["commits"] != float64(2) {
				t.Errorf("conversations --json: %v commits for own, want 2 (git-ai's commit too)", c["commits"])
			}
		}
		if !listed {
			t.Errorf("list_conversation_commits: no commit from git-ai's notes")
		}
		fc := call("get_file_context", map[string]any{"filePath": "hand.go"})
		if convs := ids(each(fc, "conversations"), "id", true); convs != own {
			t.Errorf("get_file_context hand.go: conversations %q, want own (git-ai's session)", convs)
		}
		if w := writersOf(each(fc, "otherTools")); !strings.Contains(w, "tool=claude session=sess-1") || !strings.Contains(w, "person=Ann Lee") {
			t.Errorf("get_file_context hand.go: other tools %q", w)
		}
	})

	run("get_conversation = conversation --json", func(t *testing.T) {
		for _, id := range []string{team, own} {
			mcp := call("get_conversation", map[string]any{"conversationId": id[:8]})
			cli := jsonLines(t, b.convo(b.dir, "conversation", "--json", id))[0]
			if fields(mcp, "title", "summary") != fields(cli, "title", "summary") ||
				ids(each(mcp, "commits"), "hash", true) != ids(each(cli, "commits"), "hash", true) {
				t.Errorf("get_conversation %s:\n MCP %v\n CLI %v", id[:8], mcp, cli)
			}
			md, err := os.ReadFile(mcp["filePath"].(string))
			if text := b.convo(b.dir, "conversation", id); err != nil || string(md) != text {
				t.Errorf("get_conversation %s: the context file differs from git convo conversation (%v):\n%s\n---\n%s", id[:8], err, md, text)
			}
		}
	})

	run("pr_summary = pr --format json", func(t *testing.T) {
		for _, rng := range []string{teamCommit + "~1..HEAD", ownCommit + "~1"} {
			mcp, err := json.Marshal(call("pr_summary", map[string]any{"range": rng}))
			var cli map[string]any
			if err == nil {
				err = json.Unmarshal([]byte(b.convo(b.dir, "pr", rng, "--format", "json")), &cli)
			}
			want, _ := json.Marshal(cli)
			if err != nil || string(mcp) != string(want) {
				t.Errorf("pr_summary %s (%v):\n MCP %s\n CLI %s", rng, err, mcp, want)
			}
			if !strings.Contains(string(mcp), own) {
				t.Errorf("pr_summary %s does not name the clone's conversation: %s", rng, mcp)
			}
		}
	})

	run("link_conversation_commit = link", func(t *testing.T) {
		b.write(b.dir, "one.txt", "typed by hand\n")
		byMCP := b.commit(b.dir, "one", "one.txt")
		b.write(b.dir, "two.txt", "typed by hand\n")
		byCLI := b.commit(b.dir, "two", "two.txt")
		call("link_conversation_commit", map[string]any{"conversationId": own, "commitHash": byMCP})
		b.convo(b.dir, "link", own, byCLI)
		keys := []string{"id", "title", "summary", "agent", "confidence", "status", "origin", "evidence"}
		m := each(jsonLines(t, b.convo(b.dir, "show", "--json", byMCP))[0], "conversations")
		c := each(jsonLines(t, b.convo(b.dir, "show", "--json", byCLI))[0], "conversations")
		if len(m) != 1 || len(c) != 1 || fields(m[0], keys...) != fields(c[0], keys...) {
			t.Errorf("show after the link:\n MCP's %v\n CLI's %v", m, c)
		}
		// Both rewrote the shared note (sharing is on in b).
		for name, h := range map[string]string{"MCP": byMCP, "CLI": byCLI} {
			if !strings.Contains(b.noteText(notes.Ref, h), own) {
				t.Errorf("%s's link: the note of %s does not name the conversation: %q", name, h[:7], b.noteText(notes.Ref, h))
			}
		}
	})
}

// mcpToolNames is the tools the MCP server started in dir lists.
func mcpToolNames(t *testing.T, sb *sandbox, dir string) []string {
	t.Helper()
	ctx, session := mcpSession(t, sb, dir)
	var names []string
	for _, tool := range mcpTools(t, ctx, session) {
		names = append(names, tool.Name)
	}
	return names
}
