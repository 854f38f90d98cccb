package notes

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/util/atomicfile"
)

// Git config keys of sharing (local to the repository).
const (
	KeyShare   = "convo.share"        // true: write and push notes
	KeyPrompts = "convo.sharePrompts" // true: notes carry first prompts
	KeyRemote  = "convo.shareRemote"  // where notes go (default: origin)
	KeyWriter  = "convo.shareWriter"  // names this clone's records (set by share on)
)

// Settings is a repository's sharing configuration.
type Settings struct {
	On, Prompts bool
	Remote      string
	Writer      string // convo.shareWriter, else user.email
}

// SetShare turns sharing on or off for the repository.
func (g Git) SetShare(ctx context.Context, on, prompts bool, remote string) error {
	kv := [][2]string{{KeyShare, boolStr(on)}}
	if on {
		if _, err := g.CloneWriter(ctx); err != nil {
			return err
		}
	}
	if on {
		kv = append(kv, [2]string{KeyPrompts, boolStr(prompts)})
		if remote != "" {
			kv = append(kv, [2]string{KeyRemote, remote})
		}
	}
	for _, p := range kv {
		if _, err := g.run(ctx, nil, "config", "--local", p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

// CloneWriter is the random name of this clone's records
// (convo.shareWriter), made and kept on first use. Each clone names its
// records: two clones (even one person's laptop and desktop, with one
// user.email) must not replace each other's records on a commit, and a
// record kept while sharing is off must not carry the user's e-mail.
func (g Git) CloneWriter(ctx context.Context) (string, error) {
	w, err := g.Config(ctx, KeyWriter)
	if err != nil || w != "" {
		return w, err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	w = "clone-" + hex.EncodeToString(b[:])
	if _, err := g.run(ctx, nil, "config", "--local", KeyWriter, w); err != nil {
		return "", err
	}
	return w, nil
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// Setup makes plain git carry notes, whether or not this clone shares:
// each remote's fetch brings its notes into the tracking ref (readers merge
// them on read), and amend and rebase copy notes to the new commits. It
// never sets remote.<name>.push (a bare git push would then push only the
// notes). It returns what it changed.
func (g Git) Setup(ctx context.Context) ([]string, error) {
	remotes, err := g.Remotes(ctx)
	if err != nil {
		return nil, err
	}
	var changed []string
	add := func(key, value string) error {
		out, err := g.run(ctx, nil, "config", "--local", "--get-all", key)
		if err != nil && exitCode(err) != 1 {
			return err
		}
		for _, v := range strings.Split(string(out), "\n") {
			if v == value {
				return nil
			}
		}
		if _, err := g.run(ctx, nil, "config", "--local", "--add", key, value); err != nil {
			return err
		}
		changed = append(changed, key+" "+value)
		return nil
	}
	for _, r := range remotes {
		if err := add("remote."+r+".fetch", FetchRefspec(r)); err != nil {
			return changed, err
		}
	}
	// The exact name of an older install would warn on every rewrite
	// until Ref exists.
	_, _ = g.run(ctx, nil, "config", "--local", "--fixed-value", "--unset-all", "notes.rewriteRef", Ref)
	return changed, add("notes.rewriteRef", RewriteRef)
}

// RewriteRef is notes.rewriteRef's value: Ref written as a glob that only
// Ref matches. Git warns "notes ref refs/notes/convo is invalid" on every
// amend and rebase while a plain name does not exist yet (a clone that does
// not share never writes Ref); a glob that matches nothing is silent, and
// once Ref exists its notes follow rewritten commits all the same.
const RewriteRef = "refs/notes/conv[o]"

// Unsetup takes out what Setup added. It returns what it removed, as
// "<key> <value>".
func (g Git) Unsetup(ctx context.Context) ([]string, error) {
	remotes, err := g.Remotes(ctx)
	if err != nil {
		return nil, err
	}
	var kv [][2]string
	for _, r := range remotes {
		kv = append(kv, [2]string{"remote." + r + ".fetch", FetchRefspec(r)})
	}
	kv = append(kv, [2]string{"notes.rewriteRef", RewriteRef}, [2]string{"notes.rewriteRef", Ref})
	var removed []string
	for _, p := range kv {
		if _, err := g.run(ctx, nil, "config", "--local", "--fixed-value", "--unset-all", p[0], p[1]); err == nil {
			removed = append(removed, p[0]+" "+p[1])
		}
	}
	return removed, nil
}

// where is the work tree's top level ("" in a bare repository) and the git
// common dir. One value per call: a path may hold a newline, so two answers
// on one output could not be told apart.
func (g Git) where(ctx context.Context) (root, common string, err error) {
	out, err := g.run(ctx, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", "", err
	}
	common = strings.TrimSuffix(string(out), "\n")
	if out, err := g.run(ctx, nil, "rev-parse", "--show-toplevel"); err == nil {
		root = strings.TrimSuffix(string(out), "\n")
	}
	return root, common, nil
}

// Options is how this clone builds its records.
func (g Git) Options(ctx context.Context, s Settings, version string) (BuildOptions, error) {
	root, _, err := g.where(ctx)
	if err != nil {
		return BuildOptions{}, err
	}
	home, _ := os.UserHomeDir()
	return BuildOptions{Prompts: s.Prompts, Root: root, Home: home, ToolVersion: version, Writer: s.Writer}, nil
}

// UpdateForCommits rewrites this clone's notes on hashes from the store,
// when sharing is on (else it does nothing and writes nothing): the one
// call every place where links change makes. A commit whose links are all
// gone loses this clone's record. It returns how many notes changed.
func UpdateForCommits(ctx context.Context, dir string, st *store.Store, hashes []string, version string) (int, error) {
	// Called from hooks' background work too: without the variables git
	// set for the hook (a temporary index, a replayed commit's identity).
	wd, _ := os.Getwd()
	g := Git{Dir: dir, Env: gitx.ScrubHookEnv(os.Environ(), wd)}
	s, err := g.Settings(ctx)
	if err != nil || !s.On || len(hashes) == 0 {
		return 0, err
	}
	return g.Update(ctx, st, hashes, s, version)
}

// Update writes the notes of hashes with settings s; what an amend or a
// rebase after forget could not carry is among its errors (hooks log it).
func (g Git) Update(ctx context.Context, st *store.Store, hashes []string, s Settings, version string) (int, error) {
	n, notCarried, err := g.UpdateProgress(ctx, st, hashes, s, version, nil)
	return n, errors.Join(append([]error{err}, notCarried...)...)
}

// updateBatch bounds the commits one write builds at once: their links,
// line writers, diffs and records are in memory together (share on over
// 20,000 commits held 1.7 GB in one batch).
const updateBatch = 1000

// UpdateProgress is Update in batches of updateBatch commits, one notes
// commit each, calling progress (when not nil) after each with the commits
// done and the total. Up to updateBatch commits, one write, as Update was.
// What an amend or a rebase after forget could not carry (notCarried, one
// error a commit) stops no batch and is no failure of the update: every
// note was written, the forgotten conversation's link only not kept.
func (g Git) UpdateProgress(ctx context.Context, st *store.Store, hashes []string, s Settings, version string,
	progress func(done, total int)) (changed int, notCarried []error, err error) {
	o, err := g.Options(ctx, s, version)
	if err != nil {
		return 0, nil, err
	}
	c := g.newCarrier(ctx)
	for start := 0; start < len(hashes); start += updateBatch {
		batch := hashes[start:min(start+updateBatch, len(hashes))]
		n, err := g.updateBatch(ctx, st, batch, s, o, c)
		changed += n
		if err != nil {
			return changed, c.errs, err
		}
		if progress != nil {
			progress(start+len(batch), len(hashes))
		}
	}
	return changed, c.errs, nil
}

func (g Git) updateBatch(ctx context.Context, st *store.Store, hashes []string, s Settings, o BuildOptions, c *carrier) (int, error) {
	have, err := g.existing(ctx, hashes)
	if err != nil {
		return 0, err
	}
	recs, err := g.build(ctx, st, have, o)
	if err != nil {
		return 0, err
	}
	changes := make(map[string]*trace.Record, len(have))
	for _, h := range have {
		if r, ok := recs[h]; ok {
			changes[h] = &r
		} else {
			changes[h] = nil
		}
	}
	recorded, err := st.RecordedCommits(ctx, have)
	if err != nil {
		return 0, err
	}
	f := forgottenHere{st: st, recorded: recorded, known: map[string]bool{}}
	forgot := func(c string, ids []string) map[string]bool { return f.forgot(ctx, c, ids) }
	n, err := g.write(ctx, changes, s.Writer, "git-convo: notes for "+plural(len(have), "commit"), func(commit string, built *trace.Record, olds []trace.Record) *trace.Record {
		var linked map[string]bool
		if built != nil {
			bm, _ := built.Meta()
			linked = make(map[string]bool, len(bm.Conversations))
			for id := range bm.Conversations {
				linked[id] = true
			}
		}
		return refreshed(commit, built, g.ownOld(ctx, commit, olds, linked, c), forgot, o)
	})
	if err == nil {
		err = f.err
	}
	return n, err
}

// refreshed is this clone's new record on commit when the store's links
// are rebuilt (built, nil for none): what the refresh did not write itself
// stays, namely the links old derived (squash merges), the links it
// withdrew, unless the store now links that conversation, and the links of
// conversations the store forgot (forgot: forget is local, docs/sharing.md),
// as old gave them. A record git copied onto commit from the one it
// rewrote (its revision another commit) speaks of that commit's lines: no
// forgotten link of it is kept unless ownCopy first moved it to commit's.
// A forgotten link kept says what o shares now (its text) and gives no
// line built gives a conversation.
func refreshed(commit string, built, old *trace.Record, forgot func(commit string, ids []string) map[string]bool, o BuildOptions) *trace.Record {
	if old == nil {
		return built
	}
	om, _ := old.Meta()
	var linked map[string]trace.ConvMeta
	if built != nil {
		bm, _ := built.Meta()
		linked = bm.Conversations
	}
	var unlinked []string
	for id := range om.Conversations {
		if _, ok := linked[id]; !ok {
			unlinked = append(unlinked, id)
		}
	}
	gone := map[string]bool{}
	if len(unlinked) > 0 && old.VCS != nil && strings.EqualFold(old.VCS.Revision, commit) {
		gone = forgot(commit, unlinked)
	}
	drop, keep := map[string]bool{}, map[string]bool{}
	for id, c := range om.Conversations {
		if _, ok := linked[id]; ok || !c.IsDerived() && !gone[id] {
			drop[id] = true
		} else {
			keep[id] = true
		}
	}
	var withdrawn []trace.Withdrawal
	for _, w := range om.Withdrawn {
		if _, ok := linked[w.Conversation]; !ok {
			withdrawn = append(withdrawn, w)
		}
	}
	if len(keep) == 0 && len(withdrawn) == 0 {
		return built
	}
	// A derived link (a teammate's conversation, which this store never
	// had) is kept as before, untouched: only this clone's own forgotten
	// conversations follow the forgotten path (clipped, re-shared).
	forgotten := map[string]bool{}
	for id := range keep {
		forgotten[id] = gone[id] && !om.Conversations[id].IsDerived()
	}
	if built == nil {
		kept := withdraw(*old, drop, false)
		km, _ := kept.Meta()
		km.Withdrawn = withdrawn
		reshare(&km, forgotten, o)
		kept.SetMeta(km)
		return &kept
	}
	kept := keptBeside(*built, only(*old, keep), forgotten, o)
	km, _ := kept.Meta()
	km.Withdrawn = withdrawn
	kept.SetMeta(km)
	merged := trace.Merge(yieldLines(*built, kept, forgotten), kept)
	mm, _ := merged.Meta()
	mm.Writer = om.Writer
	merged.SetMeta(mm)
	return &merged
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// State is when notes were last pushed and fetched, kept beside the
// repository's git data.
type State struct {
	LastPush      time.Time `json:"lastPush,omitzero"`
	LastPushError string    `json:"lastPushError,omitempty"`
	LastFetch     time.Time `json:"lastFetch,omitzero"`
	// Unfetched maps a remote to the notes tip install saw there and
	// could not fetch (FirstFetch): a read with no link says so.
	Unfetched map[string]string `json:"unfetched,omitempty"`
}

// stateFile holds State, in the git common dir.
const stateFile = "git-convo-share.json"

func (g Git) statePath(ctx context.Context) (string, error) {
	_, common, err := g.where(ctx)
	if err != nil {
		return "", err
	}
	return filepath.Join(common, stateFile), nil
}

// LoadState reads the sharing state (zero when never pushed or fetched).
func (g Git) LoadState(ctx context.Context) (State, error) {
	p, err := g.statePath(ctx)
	if err != nil {
		return State{}, err
	}
	return loadState(p), nil
}

// loadState reads the state file at p (zero when there is none).
func loadState(p string) State {
	var s State
	if b, err := os.ReadFile(p); err == nil {
		_ = json.Unmarshal(b, &s)
	}
	return s
}

// SaveState changes the sharing state with fn.
func (g Git) SaveState(ctx context.Context, fn func(*State)) error {
	p, err := g.statePath(ctx)
	if err != nil {
		return err
	}
	s, _ := g.LoadState(ctx)
	fn(&s)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(p, append(b, '\n'), 0o644)
}

// Count is how many notes a ref holds (0 when it does not exist).
func (g Git) Count(ctx context.Context, ref string) (int, error) {
	if tip, err := g.resolve(ctx, ref); err != nil || tip == "" {
		return 0, err
	}
	out, err := g.run(ctx, nil, "ls-tree", "-r", "--name-only", "-z", ref)
	if err != nil {
		return 0, err
	}
	return bytes.Count(out, []byte{0}), nil
}
