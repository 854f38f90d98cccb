// Command benchgen builds the large inputs scripts/bench.sh measures on and
// times commands. It is a development tool, not part of git-convo.
//
//	benchgen repo -dir D [-commits 20000] [-lines 3000] [-touches 500]
//	benchgen links -db F [-conversations 10000] [-repo D -links 5000]
//	benchgen gitai -dir D [-n 1000]
//	benchgen vscdb -path F [-conversations 500] [-bubbles 50000] [-mb 1100]
//	benchgen enrich -path F -id ID [-n 20]
//	benchgen median [-n 20] [-dir D] [-stdin F] [-vs P] -- command args...
//	benchgen peak [-dir D] -- command args...
//	benchgen version
//
// median and pair append each command's peak resident size (that of the
// process and of the children it waited for) to the file named by
// BENCH_RSS, when set: "<KB>\t<command>" a line, measured by one more run
// under /usr/bin/time (GNU time forks: a child Go starts inherits the Go
// parent's peak as its own at exec).
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/agents/cursor/cursordb"
	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchgen repo|project|links|vscdb|enrich|median ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "repo":
		err = genRepo(os.Args[2:])
	case "project":
		err = genProject(os.Args[2:])
	case "links":
		err = genLinks(os.Args[2:])
	case "gitai":
		err = genGitAI(os.Args[2:])
	case "vscdb":
		err = genVscdb(os.Args[2:])
	case "editlines":
		err = genEditLines(os.Args[2:])
	case "unwrite":
		err = unwrite(os.Args[2:])
	case "importdb":
		err = genImportDB(os.Args[2:])
	case "enrich":
		err = timeEnrich(os.Args[2:])
	case "median":
		err = median(os.Args[2:])
	case "pair":
		err = pair(os.Args[2:])
	case "peak":
		err = peak(os.Args[2:])
	case "version":
		fmt.Println(genVersion)
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

// genVersion names what the generators make: scripts/bench.sh keeps
// generated inputs under a directory with it in its name, so a change to a
// generator that changes its output must change it.
const genVersion = "2" // 2: links mode records each commit with its committer time (log finds links by it)

// fastImport creates a repository in dir and feeds what write writes to
// git fast-import, then checks the result out.
func fastImport(dir string, write func(w *bufio.Writer)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v %s", err, out)
	}
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	in, _ := cmd.StdinPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(in, 1<<20)
	write(w)
	w.Flush()
	in.Close()
	if err := cmd.Wait(); err != nil {
		return err
	}
	out, err := exec.Command("git", "-C", dir, "reset", "-q", "--hard").CombinedOutput()
	if err != nil {
		return fmt.Errorf("git reset: %v %s", err, out)
	}
	return nil
}

// writeCommit starts fast-import commit number c (0-based) on main, by
// developer dev at unix time ts, on top of the previous one.
func writeCommit(w *bufio.Writer, c int, ts int64, dev int, msg string) {
	fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\n", c+1)
	fmt.Fprintf(w, "author Dev %d <dev%d@example.com> %d +0000\ncommitter Dev %d <dev%d@example.com> %d +0000\n", dev, dev, ts, dev, dev, ts)
	fmt.Fprintf(w, "data %d\n%s\n", len(msg), msg)
	if c > 0 {
		fmt.Fprintf(w, "from :%d\n", c)
	}
}

// genRepo writes a history with git fast-import: many small commits, and one
// long file (big.txt) that a share of them edit, so blame has real work.
func genRepo(args []string) error {
	fs := flag.NewFlagSet("repo", flag.ExitOnError)
	dir := fs.String("dir", "", "repository to create")
	commits := fs.Int("commits", 20000, "number of commits")
	lines := fs.Int("lines", 3000, "lines in big.txt")
	touches := fs.Int("touches", 500, "commits that edit big.txt")
	files := fs.Int("files", 400, "small files the other commits edit, in 50 directories")
	bodyLines := fs.Int("body", 0, "lines each commit writes in its small file, every one new (0: two, one of them new)")
	fs.Parse(args)
	return fastImport(*dir, func(w *bufio.Writer) {
		big := make([]string, *lines)
		for i := range big {
			big[i] = fmt.Sprintf("line %d: the quick brown fox jumps over the lazy dog", i)
		}
		every := max(1, *commits / *touches)
		start := time.Now().Add(-time.Duration(*commits) * time.Minute).Unix()
		for c := 0; c < *commits; c++ {
			writeCommit(w, c, start+int64(c)*60, c%7, fmt.Sprintf("change %d", c))
			body := fmt.Sprintf("package p%d\n// revision %d\n", c%50, c)
			if *bodyLines > 0 {
				var b strings.Builder
				for i := 0; i < *bodyLines; i++ {
					fmt.Fprintf(&b, "\tv%d := compute(%d, %d) // revision %d\n", i, c%50, i, c)
				}
				body = b.String()
			}
			fmt.Fprintf(w, "M 644 inline src/pkg%d/file%d.go\ndata %d\n%s\n", c%50, c%*files, len(body), body)
			if c == 0 || c%every == 0 {
				for k := 0; k < 6; k++ { // rewrite a few lines spread over the file
					i := (c*7 + k*(*lines/6)) % *lines
					big[i] = fmt.Sprintf("line %d: edited in commit %d", i, c)
				}
				content := strings.Join(big, "\n") + "\n"
				fmt.Fprintf(w, "M 644 inline big.txt\ndata %d\n%s\n", len(content), content)
			}
		}
	})
}

// genProject writes a history shaped like a real project with git
// fast-import: -files files of 300-1,000 lines, -commits commits that each
// rewrite a few lines of one to three files, a tenth of the files (the hot
// ones) taking most of the edits, so each has 100+ commits of history.
func genProject(args []string) error {
	fs := flag.NewFlagSet("project", flag.ExitOnError)
	dir := fs.String("dir", "", "repository to create")
	files := fs.Int("files", 400, "number of files")
	commits := fs.Int("commits", 4000, "number of commits")
	fs.Parse(args)
	return fastImport(*dir, func(w *bufio.Writer) {
		content := make([][]string, *files)
		name := func(f int) string { return fmt.Sprintf("src/mod%02d/file%03d.go", f%40, f) }
		for f := range content {
			n := 300 + (f*37)%701
			content[f] = make([]string, n)
			for i := range content[f] {
				content[f][i] = fmt.Sprintf("\tvalue%d_%d := compute(%d, %d) // initial", f, i, f, i)
			}
		}
		hot := max(1, *files/10)
		start := time.Now().Add(-time.Duration(*commits) * time.Hour).Unix()
		rng := uint64(42)
		next := func(n int) int {
			rng = rng*6364136223846793005 + 1442695040888963407
			return int((rng >> 33) % uint64(n))
		}
		for c := 0; c < *commits; c++ {
			writeCommit(w, c, start+int64(c)*3600, c%9, fmt.Sprintf("change %d: adjust computations", c))
			var touched []int
			if c == 0 {
				for f := range content {
					touched = append(touched, f)
				}
			} else {
				for k := 0; k <= next(3); k++ {
					f := next(*files)
					if next(10) < 7 {
						f = next(hot)
					}
					touched = append(touched, f)
					for e := 0; e < 3+next(6); e++ {
						i := next(len(content[f]))
						content[f][i] = fmt.Sprintf("\tvalue%d_%d := compute(%d, %d) // commit %d", f, i, f, i, c)
					}
				}
			}
			for _, f := range touched {
				body := strings.Join(content[f], "\n") + "\n"
				fmt.Fprintf(w, "M 644 inline %s\ndata %d\n%s\n", name(f), len(body), body)
			}
		}
	})
}

// genLinks fills links.sqlite through the store's bulk path (store.Bulk):
// conversations of -events events each with their enrichment, and (with
// -repo) the repository's commits linked to them, with (-lines) the lines
// each linked commit adds written by its conversation, as a commit's
// recording keeps them. It prints what it wrote and how long it took.
func genLinks(args []string) error {
	fs := flag.NewFlagSet("links", flag.ExitOnError)
	db := fs.String("db", "", "links.sqlite to fill")
	convs := fs.Int("conversations", 10000, "conversations")
	events := fs.Int("events", 1, "events a conversation (1: one event of five files)")
	repo := fs.String("repo", "", "repository whose commits get links")
	repoKey := fs.String("repo-key", "/bench/.git", "repository key for generated conversation files")
	nLinks := fs.Int("links", 5000, "links to make to the repository's commits")
	lines := fs.Bool("lines", false, "record the lines each linked commit adds as its conversation's")
	path := fs.String("path", "", "link only commits that change this path (up to -links of them)")
	ids := fs.String("ids", "seq", "conversation ids: seq (bench-conv-00001, in order) or uuid (random-looking, as agents write them)")
	fs.Parse(args)
	convID := seqConvID
	switch *ids {
	case "seq":
	case "uuid":
		convID = uuidConvID
	default:
		return fmt.Errorf("-ids %q: seq or uuid", *ids)
	}
	ctx := context.Background()
	s, err := store.Open(ctx, *db, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	b := s.Bulk()
	now := time.Now().UnixMilli()
	for i := 0; i < *convs; i++ {
		id := convID(i)
		at := now - int64(i)*60_000
		var files []store.FileTouch
		for k := 0; k < 5; k++ {
			files = append(files, store.FileTouch{RepoKey: *repoKey, Path: fmt.Sprintf("src/pkg%d/file%d.go", (i+k)%50, (i*3+k)%400), Source: store.SourceHook})
		}
		for k := 0; k < *events; k++ {
			a := store.Activity{ConversationID: id, Event: "afterFileEdit", AtMs: at - int64(*events-k)*1000, Files: files, WorkspaceRoots: []string{"/bench"}}
			if *events > 1 {
				a.Files = files[k%5 : k%5+1]
			}
			if k == 0 {
				a.Prompt = fmt.Sprintf("bench prompt %d", i)
			}
			if err := b.RecordActivity(ctx, a); err != nil {
				return err
			}
		}
		if err := b.ApplyEnrichment(ctx, store.Enrichment{ConversationID: id, Title: fmt.Sprintf("Bench conversation %d", i),
			Summary: "a generated conversation", UpdatedMs: at}); err != nil {
			return err
		}
	}
	if err := b.Flush(ctx); err != nil {
		return err
	}
	wrote := time.Since(start)
	made := 0
	if *repo != "" {
		if made, err = genCommitLinks(ctx, s, *repo, *repoKey, *path, *convs, *nLinks, *lines, convID); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "%d conversations, %d events, %d links; conversations and events in %.1f s (%.0f events/s)\n",
		*convs, *convs**events, made, wrote.Seconds(), float64(*convs**events)/wrote.Seconds())
	return nil
}

// seqConvID is conversation i's id in order: ids next to each other in
// links.sqlite's indexes, as no agent writes them.
func seqConvID(i int) string { return fmt.Sprintf("bench-conv-%05d", i) }

// uuidConvID is conversation i's id as Claude Code, Cursor and Copilot
// write theirs (random UUIDs), the same each run: conversations linked
// to commits next to each other lie anywhere in links.sqlite's indexes.
func uuidConvID(i int) string {
	h := sha256.Sum256([]byte(strconv.Itoa(i)))
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-a" + x[17:20] + "-" + x[20:32]
}

// genCommitLinks links n of repo's commits, evenly spread, to the
// conversations in turn, recording each commit with the files it changes
// and (lines) its added lines as written by that conversation. With path,
// only the commits that change it are linked.
func genCommitLinks(ctx context.Context, s *store.Store, repo, repoKey, path string, convs, n int, lines bool, convID func(int) string) (int, error) {
	revs := []string{"-C", repo, "log", "--all", "--format=%H %ct"}
	if path != "" {
		revs = append(revs, "--", path)
	}
	out, err := exec.Command("git", revs...).Output()
	if err != nil {
		return 0, err
	}
	all := strings.Fields(string(out)) // hash, time, hash, time, ...
	step := max(1, len(all)/2/n)
	var hashes []string
	at := map[string]time.Time{} // each commit's time, as the recorder reads it from git
	for i := 0; i < len(all)/2 && len(hashes) < n; i += step {
		secs, _ := strconv.ParseInt(all[2*i+1], 10, 64)
		hashes = append(hashes, all[2*i])
		at[all[2*i]] = time.Unix(secs, 0)
	}
	b := s.Bulk()
	made := 0
	if !lines { // every commit said to change big.txt, as the read rows' databases always were
		for _, h := range hashes {
			if err := b.UpsertCommit(ctx, store.Commit{Hash: h, RepoPath: repo, RepoKey: repoKey, CommittedAt: at[h], ObjectTime: true, ParentCount: 1,
				Files: []string{"big.txt"}}); err != nil {
				return made, err
			}
			if err := b.AddAutoLinks(ctx, h, []store.Link{{ConversationID: convID(made % convs), Confidence: 0.8,
				MatchedFiles: []string{"big.txt"}, Reason: "generated", Source: store.LinkSourceImport}}); err != nil {
				return made, err
			}
			made++
		}
		return made, b.Flush(ctx)
	}
	log := exec.Command("git", "-C", repo, "log", "--no-walk=unsorted", "--stdin", "-p", "-U0", "--no-renames", "--format=%x01%H %ct")
	log.Stdin = strings.NewReader(strings.Join(hashes, "\n") + "\n")
	if out, err = log.Output(); err != nil {
		return 0, err
	}
	for _, chunk := range bytes.Split(out, []byte{1}) {
		head, body, _ := bytes.Cut(chunk, []byte{'\n'})
		f := strings.Fields(string(head))
		if len(f) != 2 {
			continue
		}
		secs, _ := strconv.ParseInt(f[1], 10, 64)
		added, err := gitx.ParseAddedLines(bytes.NewReader(body))
		if err != nil {
			return made, err
		}
		conv := convID(made % convs)
		c := store.Commit{Hash: f[0], RepoPath: repo, RepoKey: repoKey, CommittedAt: time.Unix(secs, 0), ObjectTime: true, ParentCount: 1}
		var fl []store.FileLines
		var cl []store.CommitLine
		for p, ls := range added {
			c.Files = append(c.Files, p)
			fl = append(fl, store.FileLines{Path: p, Added: len(ls), Agent: len(ls)})
			for _, l := range ls {
				cl = append(cl, store.CommitLine{Path: p, Line: l.Line, ConversationID: conv})
			}
		}
		sort.Strings(c.Files)
		if err := b.UpsertCommit(ctx, c); err != nil {
			return made, err
		}
		if err := b.AddAutoLinks(ctx, c.Hash, []store.Link{{ConversationID: conv, Confidence: 0.8,
			MatchedFiles: c.Files, Reason: "generated", Source: store.LinkSourceImport}}); err != nil {
			return made, err
		}
		if err := b.SetCommitLines(ctx, c.Hash, fl, cl); err != nil {
			return made, err
		}
		made++
	}
	return made, b.Flush(ctx)
}

// genGitAI writes a git-ai authorship log (refs/notes/ai, the shape of
// ../shared/fixtures/git-ai) on each of the repository's last -n commits,
// naming the commit's first changed file, with one git fast-import.
func genGitAI(args []string) error {
	fs := flag.NewFlagSet("gitai", flag.ExitOnError)
	dir := fs.String("dir", "", "repository")
	n := fs.Int("n", 1000, "commits to note")
	fs.Parse(args)
	out, err := exec.Command("git", "-C", *dir, "log", "-n", fmt.Sprint(*n), "--format=%x01%H", "--name-only", "--no-renames").Output()
	if err != nil {
		return err
	}
	cmd := exec.Command("git", "-C", *dir, "fast-import", "--quiet")
	in, _ := cmd.StdinPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(in, 1<<20)
	fmt.Fprintf(w, "commit refs/notes/ai\ncommitter Bench <bench@example.com> %d +0000\ndata 13\ngit-ai notes\n", time.Now().Unix())
	i := 0
	for _, rec := range strings.Split(string(out), "\x01")[1:] {
		f := strings.Fields(rec)
		if len(f) < 2 {
			continue
		}
		h, path := f[0], f[1]
		note := fmt.Sprintf("%s\n  s_%014x::t_%014x 1-%d,%d-%d\n  h_aabbccddeeff00 %d\n---\n", path, i%97, i, 3+i%20, 30+i%7, 40+i%9, 60+i%5) +
			`{"schema_version":"authorship/3.0.0","git_ai_version":"1.1.8","base_commit_sha":"` + h + `","prompts":{},` +
			fmt.Sprintf(`"sessions":{"s_%014x":{"agent_id":{"tool":"claude","id":"bench-session-%d","model":"claude-opus-4-6"},"human_author":"Dev <dev@example.com>"}},`, i%97, i%97) +
			`"humans":{"h_aabbccddeeff00":{"author":"Ann Lee <ann@example.com>"}}}` + "\n"
		fmt.Fprintf(w, "N inline %s\ndata %d\n%s\n", h, len(note), note)
		i++
	}
	w.Flush()
	in.Close()
	if err := cmd.Wait(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d git-ai notes\n", i)
	return nil
}

// genEditLines stores n lines written by agents' edits (what capture keeps
// for line-level attribution), spread over 100 conversations and 500 files;
// the lines "src/big.go line <i>" for i < -match are the ones a bench commit adds.
func genEditLines(args []string) error {
	fs := flag.NewFlagSet("editlines", flag.ExitOnError)
	db := fs.String("db", "", "links.sqlite")
	repoKey := fs.String("repo-key", "", "repository key")
	n := fs.Int("n", 50000, "edit lines")
	match := fs.Int("match", 1000, "of them, lines of src/big.go the bench commit adds")
	fs.Parse(args)
	ctx := context.Background()
	s, err := store.Open(ctx, *db, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	now := time.Now().UnixMilli()
	per := *n / 100
	for c := 0; c < 100; c++ {
		a := store.Activity{ConversationID: fmt.Sprintf("edit-conv-%03d", c), Event: "afterFileEdit", AtMs: now - 60_000}
		for i := 0; i < per; i++ {
			k := c*per + i
			path, text := fmt.Sprintf("src/f%d.go", k%500), fmt.Sprintf("\tvalue%d := compute(%d) // generated", k, k)
			if k < *match {
				path, text = "src/big.go", fmt.Sprintf("\tline%d := compute(%d)", k, k)
			}
			a.Files = append(a.Files, store.FileTouch{RepoKey: *repoKey, Path: path, Source: store.SourceHook})
			a.Lines = append(a.Lines, store.EditLine{RepoKey: *repoKey, PathKey: path, Hash: link.LineHash(text), Text: text})
		}
		if err := s.RecordActivity(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// genImportDB writes a Cursor database whose conversations edited files of
// the generated repository (src/pkgN/fileM.go), for timing git convo import.
func genImportDB(args []string) error {
	fs := flag.NewFlagSet("importdb", flag.ExitOnError)
	path := fs.String("path", "", "state.vscdb to create")
	repo := fs.String("repo", "", "the repository's top level")
	convs := fs.Int("conversations", 500, "conversations")
	fs.Parse(args)
	os.Remove(*path)
	db, err := cursordb.Open(*path, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, _ := db.Begin()
	now := time.Now()
	for c := 0; c < *convs; c++ {
		at := now.Add(-time.Duration(c) * 30 * time.Minute).UnixMilli()
		blocks := map[string]any{}
		for k := 0; k < 4; k++ {
			f := fmt.Sprintf("file://%s/src/pkg%d/file%d.go", *repo, (c+k)%50, (c*7+k)%400)
			blocks[f] = map[string]any{"b": map[string]any{"createdAt": at - 3600_000, "lastAppliedAt": at}}
		}
		v, _ := json.Marshal(map[string]any{"_v": 10, "name": fmt.Sprintf("Conversation %d", c), "createdAt": at - 7200_000,
			"lastUpdatedAt": at, "status": "completed", "fullConversationHeadersOnly": []any{}, "codeBlockData": blocks,
			"workspaceIdentifier": map[string]any{"uri": map[string]any{"fsPath": *repo}}})
		if _, err := tx.Exec(cursordb.InsertKV, fmt.Sprintf("composerData:imp-%04d", c), v); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// genVscdb writes a Cursor state.vscdb with Cursor's real schema and key
// shapes, padded to the requested size.
func genVscdb(args []string) error {
	fs := flag.NewFlagSet("vscdb", flag.ExitOnError)
	path := fs.String("path", "", "state.vscdb to create")
	convs := fs.Int("conversations", 500, "conversations")
	bubbles := fs.Int("bubbles", 50000, "bubbles in all")
	mb := fs.Int("mb", 1100, "approximate size in MiB")
	fs.Parse(args)
	if _, err := os.Stat(*path); err == nil {
		fmt.Fprintln(os.Stderr, "reusing", *path)
		return nil
	}
	db, err := cursordb.Open(*path, url.Values{"_journal_mode": {"WAL"}, "_synchronous": {"OFF"}})
	if err != nil {
		return err
	}
	defer db.Close()
	tx, _ := db.Begin()
	stmt, _ := tx.Prepare(cursordb.InsertKV)
	per := *bubbles / *convs
	pad := strings.Repeat("lorem ipsum dolor sit amet ", max(1, (*mb<<20) / *bubbles / 27))
	now := time.Now().UnixMilli()
	for c := 0; c < *convs; c++ {
		id := fmt.Sprintf("bench-%04d-0000-4000-8000-000000000000", c)
		var headers []map[string]any
		for b := 0; b < per; b++ {
			bid := fmt.Sprintf("b%05d", b)
			typ := 1 + b%2
			headers = append(headers, map[string]any{"bubbleId": bid, "type": typ})
			v, _ := json.Marshal(map[string]any{"_v": 3, "type": typ, "bubbleId": bid, "text": fmt.Sprintf("message %d %s", b, pad),
				"createdAt": time.UnixMilli(now).UTC().Format(time.RFC3339)})
			if _, err := stmt.Exec("bubbleId:"+id+":"+bid, v); err != nil {
				return err
			}
		}
		cd, _ := json.Marshal(map[string]any{"_v": 10, "composerId": id, "name": fmt.Sprintf("Bench conversation %d", c),
			"createdAt": now - 3600_000, "lastUpdatedAt": now, "status": "completed", "fullConversationHeadersOnly": headers,
			"codeBlockData": map[string]any{fmt.Sprintf("file:///bench/src/f%d.go", c): map[string]any{"x": map[string]any{"createdAt": now}}}})
		if _, err := stmt.Exec("composerData:"+id, cd); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

// timeEnrich times what enrichment reads for one conversation, in process:
// cursor.Source.ReadConversation without messages, as the stop hook reads.
func timeEnrich(args []string) error {
	fs := flag.NewFlagSet("enrich", flag.ExitOnError)
	path := fs.String("path", "", "state.vscdb")
	id := fs.String("id", "", "conversation id")
	n := fs.Int("n", 20, "runs")
	fs.Parse(args)
	src := cursor.Source{Getenv: func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return *path
		}
		return ""
	}}
	var ds []time.Duration
	for i := 0; i < *n; i++ {
		start := time.Now()
		c, err := src.ReadConversation(context.Background(), *id, source.Hint{NoMessages: true})
		if err != nil {
			return err
		}
		if c.Title == "" {
			return fmt.Errorf("no title")
		}
		ds = append(ds, time.Since(start))
	}
	fmt.Printf("%.1f\n", ms(medianOf(ds)))
	return nil
}

// median runs a command n times and prints its median wall time in ms.
// With -vs, a program (no arguments, no input) runs after each run of the
// command, in turn, and its median follows: a ratio of the two is then
// free of the machine's drift between two series.
func median(args []string) error {
	fs := flag.NewFlagSet("median", flag.ExitOnError)
	n := fs.Int("n", 20, "runs")
	dir := fs.String("dir", "", "working directory")
	stdin := fs.String("stdin", "", "file fed on stdin")
	vs := fs.String("vs", "", "a program timed in turn with the command (its median printed second)")
	pause := fs.Duration("pause", 0, "pause between runs (lets background work finish)")
	fs.Parse(args)
	cmdArgs := fs.Args()
	if len(cmdArgs) == 0 {
		return fmt.Errorf("no command")
	}
	var input []byte
	if *stdin != "" {
		var err error
		if input, err = os.ReadFile(*stdin); err != nil {
			return err
		}
	}
	run := func(input []byte, args ...string) (time.Duration, error) {
		time.Sleep(*pause)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = *dir
		if input != nil {
			cmd.Stdin = bytes.NewReader(input)
		}
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("%v: %v\n%s", args, err, out)
		}
		return time.Since(start), nil
	}
	var ds, vds []time.Duration
	for i := 0; i < *n; i++ {
		d, err := run(input, cmdArgs...)
		if err != nil {
			return err
		}
		ds = append(ds, d)
		if *vs != "" {
			if d, err = run(nil, *vs); err != nil {
				return err
			}
			vds = append(vds, d)
		}
	}
	// To 10 µs: a 2 ms row's ratio read to 0.1 ms moved by up to 5 %.
	if *vs == "" {
		fmt.Printf("%.2f\n", ms(medianOf(ds)))
		return noteRSS(*dir, input, cmdArgs...)
	}
	fmt.Printf("%.2f %.2f\n", ms(medianOf(ds)), ms(medianOf(vds)))
	if err := noteRSS(*dir, input, cmdArgs...); err != nil {
		return err
	}
	return noteRSS(*dir, nil, *vs)
}

// noteRSS runs a command once more under /usr/bin/time and appends its
// peak resident size to $BENCH_RSS.
func noteRSS(dir string, input []byte, args ...string) error {
	path := os.Getenv("BENCH_RSS")
	if path == "" {
		return nil
	}
	out, err := os.CreateTemp("", "benchgen-rss")
	if err != nil {
		return err
	}
	out.Close()
	defer os.Remove(out.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out.Name(), "--"}, args...)...)
	cmd.Dir = dir
	if input != nil {
		cmd.Stdin = bytes.NewReader(input)
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %v\n%s", args, err, b)
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		return err
	}
	return appendRSS(path, strings.TrimSpace(string(b)), strings.Join(args, " "))
}

// appendRSS appends one command's peak resident size to the file at path.
func appendRSS(path, kb, command string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "%s\t%s\n", kb, strings.ReplaceAll(command, "\n", " "))
	return f.Close()
}

// pair runs two shell commands (three with -c) in turn, n times each, each
// run in a different order, and prints their medians: drift in the
// machine's load falls on every side alike.
func pair(args []string) error {
	fs := flag.NewFlagSet("pair", flag.ExitOnError)
	n := fs.Int("n", 20, "runs of each")
	dir := fs.String("dir", "", "working directory")
	pause := fs.Duration("pause", 0, "pause before each run (lets background work finish)")
	a := fs.String("a", "", "first command (sh -c)")
	b := fs.String("b", "", "second command (sh -c)")
	c := fs.String("c", "", "third command (sh -c), optional")
	fs.Parse(args)
	cmds := []string{*a, *b}
	if *c != "" {
		cmds = append(cmds, *c)
	}
	ds := make([][]time.Duration, len(cmds))
	for i := 0; i < *n; i++ {
		for j := range cmds {
			// Neither side always runs first: rotate, and reverse every
			// other round.
			k := (i/2 + j) % len(cmds)
			if i%2 == 1 {
				k = len(cmds) - 1 - k
			}
			time.Sleep(*pause)
			cmd := exec.Command("sh", "-c", cmds[k])
			cmd.Dir = *dir
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s: %v\n%s", cmds[k], err, out)
			}
			ds[k] = append(ds[k], time.Since(start))
		}
	}
	for _, c := range cmds {
		if err := noteRSS(*dir, nil, "sh", "-c", c); err != nil {
			return err
		}
	}
	for k := range ds {
		if k > 0 {
			fmt.Print(" ")
		}
		fmt.Printf("%.2f", ms(medianOf(ds[k]))) // as median
	}
	fmt.Println()
	return nil
}

func medianOf(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peak runs a command once and prints its wall time in ms, its own peak
// resident size and that of the largest of its descendants, in KB, read
// from /proc (VmHWM) every 2 ms while it runs, the peak wait4 gives (the
// largest of the process and the children it waited for), and the CPU
// time of all of them in ms: the two first sizes tell git-convo's memory
// from git's. The command's output goes to stderr. Linux only.
func peak(args []string) error {
	fs := flag.NewFlagSet("peak", flag.ExitOnError)
	dir := fs.String("dir", "", "working directory")
	fs.Parse(args)
	cmdArgs := fs.Args()
	if len(cmdArgs) == 0 {
		return fmt.Errorf("no command")
	}
	cmd := exec.Command(cmdArgs[0], cmdArgs[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = *dir, os.Stderr, os.Stderr // stdout is ours
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var own, kids int64
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			took := time.Since(start)
			if err != nil {
				return err
			}
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			fmt.Printf("%.0f %d %d %d %.0f\n", ms(took), own, kids, maxRSS(cmd), ms(cpu))
			if path := os.Getenv("BENCH_RSS"); path != "" {
				return appendRSS(path, strconv.FormatInt(own, 10), strings.Join(cmdArgs, " "))
			}
			return nil
		case <-tick.C:
			hwm, name := procStatus(cmd.Process.Pid)
			own = max(own, hwm)
			for _, c := range descendants(cmd.Process.Pid) {
				// A child Go has started but not yet exec'd shares the
				// parent's memory, under the parent's name: not git's.
				if hwm, n := procStatus(c); n != name {
					kids = max(kids, hwm)
				}
			}
		}
	}
}

// procStatus is a process's peak resident size in KB (VmHWM) and its
// name (0 and "" when it is gone).
func procStatus(pid int) (int64, string) {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	var hwm int64
	var name string
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "Name":
			name = strings.TrimSpace(v)
		case "VmHWM":
			if f := strings.Fields(v); len(f) > 0 {
				hwm, _ = strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return hwm, name
}

// descendants are the processes below pid, from its threads' children.
func descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
				out = append(out, descendants(c)...)
			}
		}
	}
	return out
}

// unwrite gives one line of each listed commit that a conversation wrote
// to a person (the commit's first, by path and line): a commit then has a
// line no local conversation wrote, as most commits an agent and a person
// share do, which a clone fetching teammates' notes asks them about.
func unwrite(args []string) error {
	fs := flag.NewFlagSet("unwrite", flag.ExitOnError)
	db := fs.String("db", "", "links.sqlite to change")
	list := fs.String("commits", "", "a file of commit hashes, one a line")
	fs.Parse(args)
	b, err := os.ReadFile(*list)
	if err != nil {
		return err
	}
	hashes := strings.Fields(string(b))
	ctx := context.Background()
	s, err := store.Open(ctx, *db, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	writers, _, err := s.CommitLineWriters(ctx, hashes)
	if err != nil {
		return err
	}
	stats, err := s.CommitFileStats(ctx, hashes)
	if err != nil {
		return err
	}
	files := map[string][]store.FileLines{}
	for _, f := range stats {
		files[f.CommitHash] = append(files[f.CommitHash], store.FileLines{Path: f.Path, Added: f.Added, Agent: f.Agent})
	}
	n := 0
	for _, h := range hashes {
		var lines []store.CommitLine
		for p, ls := range writers[h] {
			for l, w := range ls {
				lines = append(lines, store.CommitLine{Path: p, Line: l, ConversationID: w.ConversationID,
					GenerationID: w.GenerationID, Evidence: w.Evidence})
			}
		}
		if len(lines) == 0 {
			continue
		}
		slices.SortFunc(lines, func(a, b store.CommitLine) int {
			return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
		})
		gone := lines[0]
		fl := files[h]
		for i := range fl {
			if fl[i].Path == gone.Path && fl[i].Agent > 0 {
				fl[i].Agent--
				break
			}
		}
		if err := s.SetCommitLines(ctx, h, fl, lines[1:]); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(os.Stderr, "%d commits with a line no conversation wrote\n", n)
	return nil
}
