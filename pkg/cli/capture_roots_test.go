package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCursorWorkspaceInSubfolder: Cursor opened on a folder inside the
// repository (a monorepo's web/) sends that folder as its workspace root.
// Capture keeps it as sent (it names the project, and import matches
// Cursor's own associations against it), resolves the tool's relative path
// against it, and the commit made at the repository's top level links to the
// conversation through the file it wrote there.
func TestCursorWorkspaceInSubfolder(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("mono")
	sb.convo(repo, "install", "--cursor=none")
	web := filepath.Join(repo, "web")
	sb.write(web, ".keep", "")
	const conv = "conv-subfolder"
	send := func(event string, fields map[string]any) {
		t.Helper()
		fields["workspace_roots"] = []string{web}
		if out := strings.TrimSpace(sb.capture(web, conv, event, fields)); out != "{}" && out != `{"continue":true}` {
			t.Fatalf("capture %s replied %q", event, out)
		}
	}
	send("beforeSubmitPrompt", map[string]any{"prompt": "write the app"})
	body := "package web\n\nfunc App() string { return \"subfolder\" }\n"
	sb.write(web, "app.go", body)
	send("postToolUse", map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "app.go", "content": body}})
	send("stop", map[string]any{"status": "completed"})
	sha := sb.commit(repo, "web app", "web/app.go")

	db := sb.openDB()
	defer db.Close()
	var root, project string
	if err := db.QueryRow(`SELECT workspaceRoot, projectName FROM conversations WHERE conversationId = ?`, conv).Scan(&root, &project); err != nil {
		t.Fatal(err)
	}
	if root != web || project != "web" {
		t.Errorf("workspace root %q, project %q; want %q, web", root, project, web)
	}
	var roots []string
	rows, err := db.Query(`SELECT root FROM conversation_roots WHERE conversationId = ? ORDER BY root`, conv)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, r)
	}
	rows.Close()
	if strings.Join(roots, ",") != web {
		t.Errorf("conversation roots %q; want [%s]", roots, web)
	}
	if files := sb.filesOf(repo, conv); !has(files, "web/app.go") {
		t.Errorf("files of the conversation %q; want web/app.go (the tool's path, relative to the workspace root)", files)
	}
	var linked *conversationJSON
	for _, c := range sb.showJSON(repo, sha).Conversations {
		if c.ID == conv {
			linked = &c
		}
	}
	if linked == nil || linked.WrittenLines == 0 {
		t.Fatalf("commit %s: conversation not linked with its written lines: %+v", sha, sb.showJSON(repo, sha))
	}
}
