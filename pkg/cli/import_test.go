package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/store/prototypetest"
)

// cursorKV writes rows in Cursor's real schema and key shapes.
func cursorKV(t *testing.T, path string, table string, rows map[string]any) {
	t.Helper()
	if err := cursortest.Put(path, table, rows); err != nil {
		t.Fatal(err)
	}
}

func TestImport(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	now := time.Now()
	day := 24 * time.Hour
	commitAt := func(msg string, at time.Time, files ...string) string {
		for _, f := range files {
			sb.write(repo, f, msg+"\n")
		}
		sb.run(repo, append([]string{"git", "add", "--"}, files...)...)
		env := sb.with("GIT_AUTHOR_DATE="+at.Format(time.RFC3339), "GIT_COMMITTER_DATE="+at.Format(time.RFC3339))
		if r := sb.runEnv(repo, env, "", "git", "commit", "-q", "-m", msg); r.code != 0 {
			t.Fatal(r.stderr)
		}
		return strings.TrimSpace(sb.run(repo, "git", "rev-parse", "HEAD"))
	}
	c1 := commitAt("old work", now.Add(-200*day), "a.go")
	c2 := commitAt("b", now.Add(-10*day), "b.go")
	c3 := commitAt("c and d", now.Add(-5*day), "c.go", "d.go")
	c4 := commitAt("docs", now.Add(-2*day), "unrelated.md")

	// A fresh Cursor: the global DB and one workspace DB, in every association format.
	userDir := filepath.Join(sb.home, ".config", "Cursor", "User")
	global := filepath.Join(userDir, "globalStorage", "state.vscdb")
	os.Remove(sb.cursorDB)
	ms := func(t time.Time) int64 { return t.UnixMilli() }
	uri := func(rel string) string { return "file://" + filepath.Join(repo, rel) }
	composer := func(name string, created time.Time, extra map[string]any) map[string]any {
		m := map[string]any{"_v": 10, "name": name, "createdAt": ms(created), "lastUpdatedAt": ms(created.Add(time.Hour)),
			"status": "completed", "fullConversationHeadersOnly": []any{}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	block := func(at time.Time) map[string]any {
		return map[string]any{"cb1": map[string]any{"_v": 3, "createdAt": ms(at), "lastAppliedAt": ms(at.Add(time.Minute))}}
	}
	cursorKV(t, global, "cursorDiskKV", map[string]any{
		"composerData:conv-wstorage": composer("Workspace storage", now.Add(-10*day-3*time.Hour),
			map[string]any{"codeBlockData": map[string]any{uri("b.go"): block(now.Add(-10*day - 2*time.Hour))}}),
		"composerData:conv-wsid": composer("Workspace identifier", now.Add(-5*day-3*time.Hour), map[string]any{
			"workspaceIdentifier": map[string]any{"id": "abc", "uri": map[string]any{"fsPath": repo, "scheme": "file"}},
			"originalFileStates":  map[string]any{uri("c.go"): map[string]any{"content": "x"}}}),
		"composerData:conv-headers": composer("Composer headers", now.Add(-5*day-3*time.Hour), map[string]any{
			"newlyCreatedFiles": []any{map[string]any{"uri": map[string]any{"fsPath": filepath.Join(repo, "d.go")}}}}),
		"composerData:conv-layout": composer("Project layouts", now.Add(-5*day-4*time.Hour), map[string]any{
			"codeBlockData": map[string]any{uri("d.go"): block(now.Add(-5*day - 3*time.Hour))}}),
		"messageRequestContext:conv-layout:b1": map[string]any{"projectLayouts": []any{
			`{"rootPath":"project","listDirV2Result":{"directoryTreeRoot":{"absPath":"` + repo + `"}}}`}},
		"composerData:conv-other": composer("Another project", now.Add(-5*day), map[string]any{
			"codeBlockData": map[string]any{"file:///elsewhere/x.go": block(now.Add(-5 * day))}}),
		"composerData:conv-old": composer("Long ago", now.Add(-200*day-3*time.Hour), map[string]any{
			"codeBlockData": map[string]any{uri("a.go"): block(now.Add(-200*day - 2*time.Hour))}}),
	})
	cursorKV(t, global, "ItemTable", map[string]any{"composer.composerHeaders": map[string]any{"allComposers": []any{
		map[string]any{"composerId": "conv-headers", "workspaceIdentifier": map[string]any{"uri": map[string]any{"external": "file://" + repo}}},
		map[string]any{"composerId": "conv-other", "workspaceIdentifier": map[string]any{"uri": map[string]any{"fsPath": "/elsewhere"}}},
	}}})
	ws := filepath.Join(userDir, "workspaceStorage", "0123abcd")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "workspace.json"), []byte(`{"folder": "file://`+repo+`"}`), 0o644)
	cursorKV(t, filepath.Join(ws, "state.vscdb"), "ItemTable", map[string]any{"composer.composerData": map[string]any{
		"allComposers": []any{map[string]any{"composerId": "conv-wstorage"}}}})
	env := sb.with("CURSOR_DB_PATH=" + global)

	// A link made by hand before the import is never touched.
	if r := sb.runEnv(repo, env, "", "git", "convo", "link", "conv-wstorage", c2); r.code != 0 {
		t.Fatal(r.stderr)
	}

	// Dry run: prints the links, writes nothing.
	// The summary's numbers, pinned: every run below prints exactly these.
	found := "conversations found: 5 (composerHeaders 1, editedFiles 5, projectLayouts 1, workspaceIdentifier 1, workspaceStorage 1); "
	summary := func(name, out string, want ...string) {
		t.Helper()
		if !strings.HasSuffix(out, strings.Join(want, "\n")+"\n") {
			t.Errorf("%s: the summary is\n%s\nwant it to end with\n%s", name, out, strings.Join(want, "\n"))
		}
	}
	r := sb.runEnv(repo, env, "", "git", "convo", "import", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "links that would be made: 3 new") || !strings.Contains(r.stdout, "nothing was written") {
		t.Fatalf("dry run: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	summary("dry run", r.stdout, "", found+"would import: 5", "commits scanned: 3, sharing files with them: 2",
		"links that would be made: 3 new", "(dry run: nothing was written)")
	for _, id := range []string{"conv-headers", "conv-layout", "conv-wsid"} {
		if !strings.Contains(r.stdout, "c and d  ←  "+id+" (65%: 1 of 2 files edited in this conversation; last active ") {
			t.Errorf("dry run: no link to %s:\n%s", id, r.stdout)
		}
	}
	if s := sb.showJSON(repo, c3); len(s.Conversations) != 0 {
		t.Fatalf("the dry run wrote links: %+v", s.Conversations)
	}

	// Interrupted (here: limited to two conversations), then resumed.
	r = sb.runEnv(repo, env, "", "git", "convo", "import", "--limit", "2")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	summary("--limit 2", r.stdout, found+"imported now: 2", "commits scanned: 3, sharing files with them: 2", "links made: 2 new")
	r = sb.runEnv(repo, env, "", "git", "convo", "import")
	if r.code != 0 || !strings.Contains(r.stdout, "conversations found: 5") {
		t.Fatalf("import: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	summary("resumed", r.stdout, found+"imported now: 5", "commits scanned: 3, sharing files with them: 2", "links made: 1 new")
	for _, src := range []string{"workspaceStorage", "workspaceIdentifier", "composerHeaders", "projectLayouts", "editedFiles"} {
		if !strings.Contains(r.stdout, src) {
			t.Errorf("the summary does not mention the %s source:\n%s", src, r.stdout)
		}
	}
	want := map[string][]string{c1: nil, c2: {"conv-wstorage"}, c3: {"conv-headers", "conv-layout", "conv-wsid"}, c4: nil}
	check := func() {
		t.Helper()
		for sha, ids := range want {
			s := sb.showJSON(repo, sha)
			var got []string
			for _, c := range s.Conversations {
				got = append(got, c.ID)
				if c.ID == "conv-wstorage" && sha == c2 && c.Status != "manual" {
					t.Errorf("the import changed a manual link: %+v", c)
				}
				if c.Status == "auto" && c.Source != "import" {
					t.Errorf("%s: source %q, want import", c.ID, c.Source)
				}
			}
			sortStrings(got)
			if strings.Join(got, ",") != strings.Join(ids, ",") {
				t.Errorf("%s (%s): linked %v, want %v", sha[:7], s.Commit.Subject, got, ids)
			}
		}
	}
	check()
	// A second run changes nothing.
	r = sb.runEnv(repo, env, "", "git", "convo", "import")
	if r.code != 0 || !strings.Contains(r.stdout, "links made: 0 new") {
		t.Errorf("second run: %s %s", r.stdout, r.stderr)
	}
	summary("second run", r.stdout, found+"imported now: 5", "commits scanned: 3, sharing files with them: 2", "links made: 0 new")
	check()
	if s := sb.showJSON(repo, c3); len(s.Conversations) != 3 || s.Conversations[0].Title == "" {
		t.Errorf("titles: %+v", s.Conversations)
	}
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// TestImportLineEvidence: Cursor's own diff (codeBlockDiff) of an imported
// conversation attributes the commit's lines to it.
func TestImportLineEvidence(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	global := pastCursorEdit(t, sb, repo, "q.rs", "fn agent_wrote_this() {}\nfn a_person_wrote_this() {}\n", "conv-diffs", map[string]any{
		"codeBlockDiff:conv-diffs:d1": map[string]any{"newModelDiffWrtV0": []any{map[string]any{
			"original": map[string]any{"startLineNumber": 1, "endLineNumberExclusive": 1}, "modified": []string{"fn agent_wrote_this() {}"}}}},
	})
	if r := sb.runEnv(repo, sb.with("CURSOR_DB_PATH="+global), "", "git", "convo", "import"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	out := sb.convo(repo, "blame", "--json", "q.rs")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"attribution":"agent"`) || !strings.Contains(lines[0], `"writtenBy":"conv-diffs"`) ||
		!strings.Contains(lines[1], `"attribution":"human"`) {
		t.Errorf("blame after import:\n%s", out)
	}
}

// TestImportLinkedWorktree: a conversation in another work tree of the
// repository is one of its conversations, for Cursor as for Claude Code.
func TestImportLinkedWorktree(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	wt := filepath.Join(sb.root, "project-wt")
	sb.run(repo, "git", "worktree", "add", "-q", "-b", "side", wt)
	global := pastCursorEdit(t, sb, wt, "side.go", "package side\n", "conv-side", nil)
	r := sb.runEnv(repo, sb.with("CURSOR_DB_PATH="+global), "", "git", "convo", "import")
	if r.code != 0 || !strings.Contains(r.stdout, "conversations found: 1 (editedFiles 1); imported now: 1\n") {
		t.Fatalf("import from the main work tree: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestImportInterrupted sends Ctrl-C (SIGINT) to a running import: it stops
// with a consistent database, and the next run finishes the job.
func TestImportInterrupted(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	global := filepath.Join(sb.root, "cursor", "state.vscdb")
	rows := map[string]any{}
	for i := range 400 {
		rows["composerData:conv-"+itoa3(i)] = map[string]any{"name": "c", "createdAt": time.Now().Add(-time.Hour).UnixMilli(),
			"lastUpdatedAt": time.Now().UnixMilli(), "fullConversationHeadersOnly": []any{},
			"workspaceIdentifier": map[string]any{"uri": map[string]any{"fsPath": repo}}}
	}
	cursorKV(t, global, "cursorDiskKV", rows)
	env := sb.with("CURSOR_DB_PATH=" + global)
	cmd := exec.Command(binPath, "import")
	cmd.Dir, cmd.Env = repo, env
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if err != nil && !strings.Contains(out.String(), "interrupted") {
		t.Fatalf("interrupted import: %v\n%s", err, out.String())
	}
	r := sb.runEnv(repo, env, "", "git", "convo", "import")
	if r.code != 0 || !strings.Contains(r.stdout, "conversations found: 400") {
		t.Fatalf("resumed import: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(sb.convo(repo, "conversations", "--json", "-n", "0"), "\n"); n != 400 {
		t.Errorf("%d conversations after the resumed import, want 400", n)
	}
}

func itoa3(i int) string {
	return string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

// prototypeSandbox makes a repository whose last commit changes the files
// of prototypetest.Sample, and the prototype's database about it at the
// prototype's default path.
func prototypeSandbox(t *testing.T) (sb *sandbox, repo, sha, proto string) {
	skipOnWindows(t)
	sb = newSandbox(t)
	repo = sb.repo("api")
	sb.write(repo, "src/auth.ts", "export const auth = 1\n")
	sb.write(repo, "src/middleware.ts", "export const mw = 1\n")
	sha = sb.commit(repo, "auth: add JWT", "src/auth.ts", "src/middleware.ts")
	proto = filepath.Join(sb.home, ".local", "share", "CursorChatHistory", "links.sqlite")
	if err := prototypetest.Write(proto, prototypetest.Sample(repo, sha, time.Now())); err != nil {
		t.Fatal(err)
	}
	return sb, repo, sha, proto
}

// TestAdoptPrototypeDB: a user of the Node prototype points
// CURSOR_LINKS_DB_PATH at its links.sqlite; git-convo adopts it in place
// (backup beside it) and shows its links with their confidence and status.
func TestAdoptPrototypeDB(t *testing.T) {
	sb, repo, sha, proto := prototypeSandbox(t)
	env := sb.with("GIT_CONVO_DB=", "CURSOR_LINKS_DB_PATH="+proto)
	r := sb.runEnv(repo, env, "", "git", "convo", "show", "--json", sha)
	if r.code != 0 {
		t.Fatalf("show on the prototype's database: exit %d: %s", r.code, r.stderr)
	}
	var s showJSON
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range s.Conversations {
		got[c.ID] = fmt.Sprintf("%s %.2f %s", c.Status, c.Confidence, c.Title)
	}
	want := map[string]string{"3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10": "auto 0.92 Add JWT authentication", "conv-123": "manual 1.00 Review the auth flow"}
	if fmt.Sprint(got) != fmt.Sprint(want) || !s.Commit.Recorded {
		t.Errorf("adopted links: %v, recorded %v", got, s.Commit.Recorded)
	}
	if _, err := os.Stat(proto + ".prototype-backup"); err != nil {
		t.Errorf("no backup beside the prototype's database: %v", err)
	}
	// The side tables place it in this repository.
	if out := sb.runEnv(repo, env, "", "git", "convo", "conversations", "--json"); !strings.Contains(out.stdout, "Add JWT authentication") {
		t.Errorf("conversations of the repository: %s %s", out.stdout, out.stderr)
	}
	// The adopted file is git-convo's own: install does not offer to import it.
	if out := sb.runEnv(repo, env, "", "git", "convo", "install", "--cursor=none"); strings.Contains(out.stdout, "--from-prototype") {
		t.Errorf("install offers to import git-convo's own database:\n%s", out.stdout)
	}
}

// TestImportFromPrototype: the prototype's database at its default path is
// mentioned by install and doctor, and imported by import --from-prototype.
func TestImportFromPrototype(t *testing.T) {
	sb, repo, sha, proto := prototypeSandbox(t)
	if out := sb.convo(repo, "install", "--cursor=none"); !strings.Contains(out, proto) || !strings.Contains(out, "git convo import --from-prototype") {
		t.Errorf("install does not mention the prototype's database:\n%s", out)
	}
	r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor")
	if !strings.Contains(r.stdout, "prototype db") || !strings.Contains(r.stdout, "fix: git convo import --from-prototype") {
		t.Errorf("doctor does not mention the prototype's database:\n%s", r.stdout)
	}
	out := sb.convo(repo, "import", "--from-prototype")
	if !strings.Contains(out, "2 conversations (2 new), 1 commits (1 new), 2 links (2 new") {
		t.Errorf("import: %s", out)
	}
	s := sb.showJSON(repo, sha)
	if len(s.Conversations) != 2 || s.Conversations[0].Confidence != 1 || s.Conversations[0].Status != "manual" {
		t.Errorf("imported links: %+v", s.Conversations)
	}
	if out := sb.convo(repo, "import", "--from-prototype", proto); !strings.Contains(out, "(0 new), 1 commits (0 new), 2 links (0 new") {
		t.Errorf("second import: %s", out)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "doctor"); !strings.Contains(r.stdout, "imported") || strings.Contains(r.stdout, "fix: git convo import --from-prototype") {
		t.Errorf("doctor after the import:\n%s", r.stdout)
	}
	if r := sb.runEnv(repo, sb.env, "", "git", "convo", "import", "--from-prototype", filepath.Join(sb.root, "nope.sqlite")); r.code != 1 || !strings.Contains(r.stderr, "no prototype database") {
		t.Errorf("missing file: exit %d %q", r.code, r.stderr)
	}
}

// TestImportSinceBefore1970: a --since before 1970 ("100 years ago", as
// scripts/bench.sh asks) takes every commit: git prints such a time as an
// unsigned wrap, and git log reads no date before 1970.
func TestImportSinceBefore1970(t *testing.T) {
	skipOnWindows(t)
	sb := newSandbox(t)
	repo := sb.repo("project")
	global := pastCursorEdit(t, sb, repo, "q.go", "package q\n", "conv-q", nil)
	r := sb.runEnv(repo, sb.with("CURSOR_DB_PATH="+global), "", "git", "convo", "import", "--since", "100 years ago")
	all := strings.TrimSpace(sb.run(repo, "git", "rev-list", "--count", "HEAD"))
	if r.code != 0 || !strings.Contains(r.stdout, "commits scanned: "+all+", sharing files with them: 1") {
		t.Errorf("import --since '100 years ago': %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// pastCursorEdit commits file with content two days ago and writes a Cursor
// database (returned) in which conversation id edited it just before (its
// code block's diff is codeBlockDiff:<id>:d1, when rows hold it).
func pastCursorEdit(t *testing.T, sb *sandbox, repo, file, content, id string, rows map[string]any) string {
	t.Helper()
	at := time.Now().Add(-2 * 24 * time.Hour)
	sb.write(repo, file, content)
	sb.run(repo, "git", "add", file)
	env := sb.with("GIT_AUTHOR_DATE="+at.Format(time.RFC3339), "GIT_COMMITTER_DATE="+at.Format(time.RFC3339))
	sb.runEnv(repo, env, "", "git", "commit", "-q", "-m", "past "+file)
	global := filepath.Join(sb.root, "cursor", "state.vscdb")
	all := map[string]any{
		"composerData:" + id: map[string]any{"name": id, "createdAt": at.Add(-time.Hour).UnixMilli(), "lastUpdatedAt": at.Add(-30 * time.Minute).UnixMilli(),
			"fullConversationHeadersOnly": []any{}, "codeBlockData": map[string]any{"file://" + filepath.Join(repo, file): map[string]any{
				"cb": map[string]any{"diffId": "d1", "createdAt": at.Add(-time.Hour).UnixMilli()}}}},
	}
	for k, v := range rows {
		all[k] = v
	}
	cursorKV(t, global, "cursorDiskKV", all)
	return global
}
