package notes

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// Clipping a note costs a git log -p of its commit: for blame, the
// largest part of reading teammates' notes (the blamed file's diff in
// each blamed commit, 170 ms for 251 commits of a 3,000-line file). What
// git printed for a pair of blobs is a function of the blobs, their modes
// and the settings it diffed with, so links.sqlite keeps it
// (store.AddedLines), keyed by exactly those: a commit's blobs, read with
// one git log --raw (10 ms for the same commits), find the lines without
// a diff. Whatever git resolves a commit's parent to (a shallow boundary,
// a replacement, a graft) it resolves in --raw as in -p, so the key
// follows it.

// AddedCache keeps what diffs added (links.sqlite: *store.Store).
type AddedCache interface {
	AddedLines(ctx context.Context, settings string, keys []string) (map[string]string, error)
	PutAddedLines(ctx context.Context, settings string, lines map[string]string, wait time.Duration) error
}

// addedCacheWait is how long keeping new lines waits on another writer of
// links.sqlite; past it, blame goes on without keeping them.
const addedCacheWait = 100 * time.Millisecond

// UseAddedCache has blame's clip (MergeLineWritersIn) take the lines
// commits added from c where it holds them, and keep there those it diffs.
func (r *Reader) UseAddedCache(c AddedCache) {
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	r.added = c
}

// addedCache is the cache UseAddedCache set (nil: none).
func (r *Reader) addedCache() AddedCache {
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	return r.added
}

// rawEntry is one file of a commit's git log --raw: its path as git
// names it, and the key of its modes and blobs before and after.
type rawEntry struct {
	path, blobs string
}

// clipAllCached is clipAll for paths (blame), taking what commits added
// from c where it holds it. Any failure to read the settings or the blobs
// diffs as clipAll does; a failure to keep the new lines is ignored.
func (g Git) clipAllCached(ctx context.Context, recs map[string]trace.Record, paths []string, c AddedCache) error {
	have, err := g.existing(ctx, toDiff(recs, paths))
	if err != nil {
		return err
	}
	added := map[string]map[string][]gitx.AddedLine{}
	if len(have) > 0 {
		if added, err = g.addedIn(ctx, have, paths, c); err != nil {
			return err
		}
	}
	for h, rec := range recs {
		recs[h] = clip(rec, added[h])
	}
	return nil
}

// addedIn is, per commit of hashes, the lines it added to paths by
// normalised path (as diffs gives them), from c where c holds every file
// of the commit and from one git log -p of the others.
func (g Git) addedIn(ctx context.Context, hashes, paths []string, c AddedCache) (map[string]map[string][]gitx.AddedLine, error) {
	out := map[string]map[string][]gitx.AddedLine{}
	fromDiffs := func(hs []string) error {
		d, err := g.diffs(ctx, hs, paths...)
		for h, cd := range d {
			out[h] = cd.added
		}
		return err
	}
	settings, attrs, ok := g.diffSettings(ctx, paths)
	var raw map[string][]rawEntry
	if ok {
		raw, ok = g.rawBlobs(ctx, hashes, paths)
	}
	if !ok {
		return out, fromDiffs(hashes)
	}
	// A commit is taken from the cache when every file of it is a plain
	// path (named alike by --raw and -p) found there.
	key := func(e rawEntry) string { return attrs[e.path] + " " + e.blobs }
	cacheable := func(e rawEntry) bool {
		_, named := attrs[e.path] // not a file under a directory named
		return named && plainPath(e.path)
	}
	var keys []string
	for _, h := range hashes {
		for _, e := range raw[h] {
			if cacheable(e) {
				keys = append(keys, key(e))
			}
		}
	}
	kept, err := c.AddedLines(ctx, settings, keys)
	if err != nil {
		kept = nil // read on without it
	}
	var diff []string
	for _, h := range hashes {
		files := map[string][]gitx.AddedLine{}
		whole := true
		for _, e := range raw[h] {
			lines, found := kept[key(e)]
			if !found || !cacheable(e) {
				whole = false
				break
			}
			if files[e.path], ok = decodeLines(lines); !ok {
				whole = false
				break
			}
		}
		if !whole {
			diff = append(diff, h)
			continue
		}
		out[h] = files
	}
	if len(diff) == 0 {
		return out, nil
	}
	if err := fromDiffs(diff); err != nil {
		return nil, err
	}
	keep := map[string]string{}
	for _, h := range diff {
		// A commit with a file not kept (a name git quotes may normalise to
		// another's), or -p naming a file --raw did not: keep none of it.
		whole := sameFiles(raw[h], out[h])
		for _, e := range raw[h] {
			whole = whole && cacheable(e)
		}
		if !whole {
			continue
		}
		for _, e := range raw[h] {
			if _, known := kept[key(e)]; !known {
				keep[key(e)] = encodeLines(out[h][e.path])
			}
		}
	}
	_ = c.PutAddedLines(ctx, settings, keep, addedCacheWait) // kept next time, or diffed again
	return out, nil
}

// sameFiles says whether every file -p gave lines of (by normalised path)
// is one --raw named.
func sameFiles(raw []rawEntry, added map[string][]gitx.AddedLine) bool {
	for p := range added {
		found := false
		for _, e := range raw {
			found = found || link.NormPath(e.path) == p
		}
		if !found {
			return false
		}
	}
	return true
}

// diffSettings is what, beside two blobs and their modes, decides the
// lines git log -p says a diff added: git's version, its diff
// configuration (the algorithm, the heuristics, a driver's settings,
// core.bigFileThreshold; -c options included), GIT_DIFF_OPTS, and per path
// its attributes (binary, a diff driver), as a short fingerprint.
func (g Git) diffSettings(ctx context.Context, paths []string) (settings string, attrs map[string]string, ok bool) {
	version, err := g.run(ctx, nil, "version")
	if err != nil {
		return "", nil, false
	}
	// Exit status 1: no such setting.
	config, err := g.run(ctx, nil, "config", "-z", "--get-regexp", `^(diff\.|core\.bigfilethreshold$)`)
	if err != nil && exitCode(err) != 1 {
		return "", nil, false
	}
	settings = fingerprint(version, config, []byte(g.getenv("GIT_DIFF_OPTS")))
	// check-attr takes paths from the current directory: ask from the top
	// (paths are git's names, from the top). No work tree: no cache.
	top := Git{Dir: g.topLevel(ctx), Env: g.Env}
	if top.Dir == "" {
		return "", nil, false
	}
	out, err := top.run(ctx, []byte(strings.Join(paths, "\x00")+"\x00"), "check-attr", "-z", "-a", "--stdin")
	if err != nil {
		return "", nil, false
	}
	per := map[string][][]byte{}
	f := bytes.Split(out, []byte{0})
	for i := 0; i+2 < len(f); i += 3 { // path, attribute, value
		per[string(f[i])] = append(per[string(f[i])], f[i+1], f[i+2])
	}
	attrs = make(map[string]string, len(paths))
	for _, p := range paths {
		attrs[p] = fingerprint(per[p]...)
	}
	return settings, attrs, true
}

// topLevel is the work tree's top ("" without one), found in process
// where it can be.
func (g Git) topLevel(ctx context.Context) string {
	if repo, ok := gitx.Discover(g.Dir, g.getenv); ok {
		return repo.TopLevel
	}
	out, err := g.run(ctx, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(out), "\n")
}

// fingerprint is a short hash of parts, each length-prefixed.
func fingerprint(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p)) + ":"))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// rawBlobs reads, per commit of hashes, the files of paths its diff
// changes, as git log --raw gives them (one git): what git log -p of the
// same commits would diff. False when git cannot say.
func (g Git) rawBlobs(ctx context.Context, hashes, paths []string) (map[string][]rawEntry, bool) {
	args := append(append([]string{}, diffOptions...), "log", "--no-walk=unsorted", "--stdin", "--raw", "-z", "--no-abbrev",
		"--no-renames", "--no-color", "--format=%x01%H")
	args = append(args, "--")
	for _, p := range paths {
		args = append(args, ":(top,literal)"+p)
	}
	out, err := g.run(ctx, []byte(strings.Join(hashes, "\n")+"\n"), args...)
	if err != nil {
		return nil, false
	}
	// Split on NUL only: a path may hold any other byte (0x01 too). A
	// token opening with 0x01 is a commit; one opening with ':' is a
	// file's modes and blobs, and the token after it its path.
	raw := map[string][]rawEntry{}
	toks := bytes.Split(out, []byte{0})
	cur, inCommit := "", false
	for i := 0; i < len(toks); i++ {
		t := bytes.TrimLeft(toks[i], "\n")
		switch {
		case len(t) == 0:
		case t[0] == 1:
			cur, inCommit = string(t[1:]), true
			raw[cur] = nil
		case t[0] == ':' && inCommit && i+1 < len(toks):
			// ":<mode> <mode> <blob> <blob> <status>"
			meta := strings.Fields(string(t[1:]))
			if len(meta) != 5 {
				return nil, false
			}
			i++
			raw[cur] = append(raw[cur], rawEntry{path: string(toks[i]), blobs: strings.Join(meta[:4], " ")})
		default:
			return nil, false
		}
	}
	return raw, true
}

// plainPath says whether git names p alike in --raw -z and in -p's
// headers, and NormPath keeps it: printable ASCII, no quote, no
// backslash, no space, already normalised. Other files are diffed each
// time.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c <= ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return p != "" && link.NormPath(p) == p
}

// encodeLines writes added's line numbers as runs ("3-5,9"; "" for none),
// in the order git printed them.
func encodeLines(added []gitx.AddedLine) string {
	var b strings.Builder
	for i := 0; i < len(added); {
		j := i
		for j+1 < len(added) && added[j+1].Line == added[j].Line+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(added[i].Line))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(added[j].Line))
		}
		i = j + 1
	}
	return b.String()
}

// decodeLines reads encodeLines' runs back (line numbers only: the clip
// needs no text). False for what encodeLines cannot have written.
func decodeLines(s string) ([]gitx.AddedLine, bool) {
	if s == "" {
		return nil, true
	}
	var out []gitx.AddedLine
	for run := range strings.SplitSeq(s, ",") {
		a, b, isRun := strings.Cut(run, "-")
		from, err := strconv.Atoi(a)
		if err != nil || from < 1 {
			return nil, false
		}
		to := from
		if isRun {
			if to, err = strconv.Atoi(b); err != nil || to <= from || to-from > 1<<24 {
				return nil, false
			}
		}
		for n := from; n <= to; n++ {
			out = append(out, gitx.AddedLine{Line: n})
		}
	}
	return out, true
}
