package notes

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/trace"
)

// Reader reads shared notes for a read command that asks in batches (log):
// it lists the notes refs once, in the background from the start, and keeps
// one git cat-file open, so a long log costs a few processes in all.
type Reader struct {
	g       Git
	ready   chan struct{}
	index   map[string][]string // commit -> note blobs on every ref
	derived map[string][]byte   // records this clone derived (squash merges), on no ref
	err     error

	mu  sync.Mutex
	cat *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// NewReader starts listing the notes of the repository at dir.
func NewReader(ctx context.Context, dir string) *Reader {
	return NewReaderAfter(ctx, dir, nil)
}

// NewReaderAfter is NewReader that lists the notes once after is closed
// (nil: at once): a read command's drain of the commit queue may first
// derive records (squash merges a pull brought).
func NewReaderAfter(ctx context.Context, dir string, after <-chan struct{}) *Reader {
	r := &Reader{g: Git{Dir: dir}, ready: make(chan struct{})}
	go func() {
		defer close(r.ready)
		if after != nil {
			<-after
		}
		r.index, r.err = r.g.listNotes(ctx)
		if r.err == nil {
			r.derived, r.err = r.g.LoadDerived(ctx)
		}
	}()
	return r
}

// listNotes maps each commit with a note on Ref or a tracking ref to the
// note blobs.
func (g Git) listNotes(ctx context.Context) (map[string][]string, error) {
	refs, err := g.SharedRefs(ctx)
	if err != nil {
		return nil, err
	}
	index := map[string][]string{}
	for _, ref := range refs {
		out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", ref)
		if err != nil {
			continue // vanished or unreadable: the other refs still answer
		}
		for _, entry := range bytes.Split(out, []byte{0}) {
			meta, path, ok := bytes.Cut(entry, []byte{'\t'})
			f := strings.Fields(string(meta))
			if ok && len(f) == 3 && f[1] == "blob" {
				c := strings.ReplaceAll(string(path), "/", "")
				index[c] = append(index[c], f[2])
			}
		}
	}
	return index, nil
}

// Records returns the merged shared record of each of hashes that has one.
func (r *Reader) Records(ctx context.Context, hashes []string) (map[string]trace.Record, error) {
	<-r.ready
	out := map[string]trace.Record{}
	if r.err != nil || len(r.index) == 0 && len(r.derived) == 0 {
		return out, r.err
	}
	var blobs []string
	var have []string
	for _, h := range hashes {
		if bs := r.index[h]; len(bs) > 0 || r.derived[h] != nil {
			have = append(have, h)
			blobs = append(blobs, bs...)
		}
	}
	if len(have) == 0 {
		return out, nil
	}
	contents := map[string][]byte{}
	if len(blobs) > 0 {
		var err error
		if contents, err = r.read(ctx, blobs); err != nil {
			return nil, err
		}
	}
	for _, h := range have {
		parts := [][]byte{r.derived[h]}
		for _, b := range r.index[h] {
			parts = append(parts, contents[b])
		}
		if rec, ok := Combine(Decode(joinLines(parts...))); ok {
			rec.VCS = &trace.VCS{Type: "git", Revision: h}
			out[h] = rec
		}
	}
	return out, nil
}

// All returns every shared record, by commit.
func (r *Reader) All(ctx context.Context) (map[string]trace.Record, error) {
	<-r.ready
	var hashes []string
	for h := range r.index {
		hashes = append(hashes, h)
	}
	for h := range r.derived {
		if r.index[h] == nil {
			hashes = append(hashes, h)
		}
	}
	return r.Records(ctx, hashes)
}

// read asks the long-lived git cat-file for blobs.
func (r *Reader) read(ctx context.Context, blobs []string) (map[string][]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cat == nil {
		cmd := r.g.cmd(ctx, "cat-file", "--batch")
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		r.cat, r.in, r.out = cmd, in, bufio.NewReader(out)
	}
	werr := make(chan error, 1)
	go func() {
		_, err := io.WriteString(r.in, strings.Join(blobs, "\n")+"\n")
		werr <- err
	}()
	res := make(map[string][]byte, len(blobs))
	for range blobs {
		head, err := r.out.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(head)
		if len(f) != 3 {
			continue // missing
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: bad header %q", head)
		}
		buf := make([]byte, n+1)
		if _, err := io.ReadFull(r.out, buf); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		res[f[0]] = buf[:n]
	}
	return res, <-werr
}

// Close ends the cat-file process.
func (r *Reader) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cat != nil {
		_ = r.in.Close()
		_ = r.cat.Wait()
		r.cat = nil
	}
}

// MergeLinked adds to linked (the local database's links of hashes) the
// conversations shared notes name: one the local database already links
// stays as it is, with what it lacks (title, summary) filled in from the
// note; others are added with Source SourceNotes. This is the one call the
// read commands make.
func (r *Reader) MergeLinked(ctx context.Context, hashes []string, linked map[string][]store.LinkedConversation) error {
	recs, err := r.Records(ctx, hashes)
	if err != nil {
		return err
	}
	for c, rec := range recs {
		linked[c] = mergeLinks(linked[c], Linked(c, rec))
	}
	return nil
}

// MergeLineWriters adds to writers (per commit, path and line, who wrote
// it: blame's data) the AI lines of shared notes, for commits the local
// database has no line evidence of.
func (r *Reader) MergeLineWriters(ctx context.Context, hashes []string, writers map[string]map[string]map[int]store.LineWriter, recorded map[string]bool) error {
	var need []string
	for _, h := range hashes {
		if !recorded[h] {
			need = append(need, h)
		}
	}
	if len(need) == 0 {
		return nil
	}
	recs, err := r.Records(ctx, need)
	if err != nil {
		return err
	}
	for c, rec := range recs {
		addLineWriters(writers, c, rec)
		recorded[c] = true
	}
	return nil
}

func addLineWriters(writers map[string]map[string]map[int]store.LineWriter, c string, rec trace.Record) {
	for _, f := range rec.Files {
		for _, conv := range f.Conversations {
			id := trace.ConversationID(conv.URL)
			if id == "" || conv.Contributor == nil || conv.Contributor.Type != "ai" {
				continue
			}
			if writers[c] == nil {
				writers[c] = map[string]map[int]store.LineWriter{}
			}
			if writers[c][f.Path] == nil {
				writers[c][f.Path] = map[int]store.LineWriter{}
			}
			for _, rg := range conv.Ranges {
				for n := rg.StartLine; n <= rg.EndLine; n++ {
					writers[c][f.Path][n] = store.LineWriter{ConversationID: id}
				}
			}
		}
	}
}

// Conversations returns every conversation shared notes name, with the
// commits they link it to, strongest first, each with the conversation's
// metadata as that note has it.
func (r *Reader) Conversations(ctx context.Context) (map[string][]store.LinkedConversation, error) {
	recs, err := r.All(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]store.LinkedConversation{}
	for c, rec := range recs {
		for _, lc := range Linked(c, rec) {
			out[lc.ConversationID] = append(out[lc.ConversationID], lc)
		}
	}
	for _, links := range out {
		sort.Slice(links, func(i, j int) bool {
			if links[i].Confidence != links[j].Confidence {
				return links[i].Confidence > links[j].Confidence
			}
			return links[i].CommitHash < links[j].CommitHash
		})
	}
	return out, nil
}

// Conversation returns the links of the one conversation shared notes name
// whose id is prefix or starts with it (none: nil). Two conversations
// matching a prefix are an error.
func (r *Reader) Conversation(ctx context.Context, prefix string) ([]store.LinkedConversation, error) {
	all, err := r.Conversations(ctx)
	if err != nil {
		return nil, err
	}
	return Find(all, prefix)
}

// Find picks from Conversations' answer the conversation whose id is
// prefix or starts with it (none: nil); two matching are an error.
func Find(all map[string][]store.LinkedConversation, prefix string) ([]store.LinkedConversation, error) {
	if prefix == "" {
		return nil, nil
	}
	if links, ok := all[prefix]; ok {
		return links, nil
	}
	var found []store.LinkedConversation
	for id, links := range all {
		if !strings.HasPrefix(id, prefix) {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("conversation %q is ambiguous in shared notes: %s, %s", prefix, found[0].ConversationID, id)
		}
		found = links
	}
	return found, nil
}
