package gitx

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/odb"
)

// Hash abbreviation in process: what git's %h prints, from the pack indexes
// and loose objects themselves, with no git process (blame's column width).
// It answers only where it is exact; callers fall back to git otherwise.

// MaxIndexBytes bounds the pack indexes searched in process (mapped, each
// name found by the fanout and a binary search, as git does): some 2.3 M
// objects. The walk's old bound, 8 MB, dated from when the names were
// copied: on 403,077 objects (an 11 MB index) log -n 1000 went to git for
// 20 ms of CPU where the walk takes 14-15 (git alone 6). Past it, git's.
const MaxIndexBytes = 64 << 20

// abbrevObjects is a repository's object names: every pack index's sorted
// names and the loose objects, read as asked.
type abbrevObjects struct {
	dir    string
	packs  [][]byte      // each index's names, 20 bytes each, sorted, mapped
	fans   [][256]uint32 // each index's fan-out: names before each first byte's end
	unmaps []func()      // the indexes' mappings (close)
	count  uint64        // objects in packs: git's approximate object count
	loose  map[string][]string
	// fanout holds the loose fan-out directories (00 to ff) that exist,
	// listed once: most of a packed repository's do not.
	fanout map[string]bool
}

// abbrevIndexes lists the pack indexes of the object directory dir that
// decide git's abbreviations, with their total size, from the directory
// alone (no index is read); ok is false where git would see objects they
// do not hold (alternates, a multi-pack index).
func abbrevIndexes(dir string) (idxs []string, size int64, ok bool) {
	for _, f := range []string{"info/alternates", "pack/multi-pack-index"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			return nil, 0, false
		}
	}
	all, err := filepath.Glob(filepath.Join(dir, "pack", "*.idx"))
	if err != nil {
		return nil, 0, false
	}
	for _, p := range all {
		if _, err := os.Stat(strings.TrimSuffix(p, ".idx") + ".pack"); err != nil {
			continue // git ignores an index without its pack
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, 0, false
		}
		idxs, size = append(idxs, p), size+fi.Size()
	}
	return idxs, size, true
}

// openAbbrevObjects reads the pack indexes of the object directory dir; ok
// is false where git would see objects it does not read (alternates, a
// multi-pack index, another index version, SHA-256).
func openAbbrevObjects(maps *odb.Maps, dir string) (*abbrevObjects, bool) {
	idxs, size, ok := abbrevIndexes(dir)
	if !ok || size > MaxIndexBytes {
		return nil, false
	}
	return readAbbrevObjects(maps, dir, idxs)
}

// readAbbrevObjects maps the names of the pack indexes idxs (only the
// names are read: not the CRCs and offsets after them), shared through
// maps; close releases them.
func readAbbrevObjects(maps *odb.Maps, dir string, idxs []string) (*abbrevObjects, bool) {
	o := &abbrevObjects{dir: dir, loose: map[string][]string{}}
	for _, p := range idxs {
		names, fan, unmap, ok := odb.MapIndexNames(maps, p)
		if !ok {
			o.close()
			return nil, false
		}
		o.packs, o.fans, o.unmaps = append(o.packs, names), append(o.fans, fan), append(o.unmaps, unmap)
		o.count += uint64(fan[255])
	}
	return o, true
}

// close unmaps the indexes; o answers nothing after.
func (o *abbrevObjects) close() {
	for _, unmap := range o.unmaps {
		unmap()
	}
	o.packs, o.unmaps, o.dir = nil, nil, ""
}

// minLen is git's automatic abbreviation length: enough hex digits for the
// object count's square root, at least 7.
func (o *abbrevObjects) minLen() int {
	bits := 0
	for c := o.count; c > 1; c >>= 1 {
		bits++
	}
	return max((bits+1+1)/2, 7)
}

// abbrev returns the shortest prefix of h (a full hex name) at least n long
// that no other object shares.
func (o *abbrevObjects) abbrev(h string, n int) (string, bool) {
	var buf [20]byte
	if len(h) != 40 || o.dir == "" { // closed: its packs are gone
		return "", false
	}
	if _, err := hex.Decode(buf[:], []byte(h)); err != nil {
		return "", false
	}
	raw := buf[:]
	common := 0 // hex digits h shares with another object
	for k, names := range o.packs {
		cnt := len(names) / 20
		// The neighbours are among the names sharing h's first byte, or
		// just either side of them: the fan-out narrows the search.
		lo, hi := 0, int(o.fans[k][raw[0]])
		if raw[0] > 0 {
			lo = int(o.fans[k][raw[0]-1])
		}
		i := odb.SearchNames(names, lo, hi, raw)
		for _, j := range [3]int{i - 1, i, i + 1} {
			if j >= 0 && j < cnt && !bytes.Equal(names[j*20:j*20+20], raw) {
				common = max(common, commonHexPrefix(names[j*20:j*20+20], raw))
			}
		}
	}
	sub := h[:2]
	if o.fanout == nil {
		ents, err := os.ReadDir(o.dir)
		if err != nil {
			return "", false
		}
		o.fanout = make(map[string]bool, len(ents))
		for _, e := range ents {
			o.fanout[e.Name()] = true
		}
	}
	names, ok := o.loose[sub]
	if !ok && o.fanout[sub] {
		ents, err := os.ReadDir(filepath.Join(o.dir, sub))
		if err != nil && !os.IsNotExist(err) {
			return "", false
		}
		for _, e := range ents {
			names = append(names, e.Name())
		}
		o.loose[sub] = names
	}
	for _, name := range names {
		if len(name) == 38 && name != h[2:] {
			k := 0
			for k < 38 && name[k] == h[2+k] {
				k++
			}
			common = max(common, 2+k)
		}
	}
	return h[:min(max(n, common+1), len(h))], true
}

// commonHexPrefix counts the hex digits a and b share.
func commonHexPrefix(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i]>>4 == b[i]>>4 {
				return 2*i + 1
			}
			return 2 * i
		}
	}
	return 2 * len(a)
}

// coreAbbrevLen is the least length core.abbrev asks for: 0 for git's
// automatic length, the full length for "no", ok false for a value git
// would refuse and for an empty one (full length, or git's error for a
// key without "=": git tells).
func coreAbbrevLen(v string, set bool) (int, bool) {
	switch strings.ToLower(v) {
	case "auto":
		return 0, true
	case "no", "false", "off":
		return 40, true
	}
	if !set {
		return 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 4 || n > 40 {
		return 0, false
	}
	return n, true
}

// AbbrevsKnowingConfig is Abbrevs for a caller that read core.abbrev
// already (value, and whether it is set): it answers from the object
// files, without a git process, where it can tell exactly what git would
// print, and asks git otherwise.
func (r *Repo) AbbrevsKnowingConfig(ctx context.Context, hashes []string, coreAbbrev string, set bool) (map[string]string, error) {
	if out, ok := r.abbrevsInProcess(hashes, coreAbbrev, set); ok {
		return out, nil
	}
	return r.Abbrevs(ctx, hashes)
}

func (r *Repo) abbrevsInProcess(hashes []string, coreAbbrev string, set bool) (map[string]string, bool) {
	n, ok := coreAbbrevLen(coreAbbrev, set)
	if !ok {
		return nil, false
	}
	dir, ok := r.abbrevObjectDir()
	if !ok {
		return nil, false
	}
	o, ok := openAbbrevObjects(&r.maps, dir)
	if !ok {
		return nil, false
	}
	defer o.close()
	return o.abbrevs(hashes, n)
}

// abbrevs abbreviates each hash as git's %h does, to at least n hex digits
// (0: git's automatic length).
func (o *abbrevObjects) abbrevs(hashes []string, n int) (map[string]string, bool) {
	if n == 0 {
		n = o.minLen()
	}
	out := make(map[string]string, len(hashes))
	for _, h := range hashes {
		a, ok := o.abbrev(h, n)
		if !ok {
			return nil, false
		}
		out[h] = a
	}
	return out, true
}

// abbrevObjectDir is the object directory whose files tell git's
// abbreviations, where git reads no other: not with GIT_DIR and the like
// (their objects may live elsewhere), nor in a SHA-256 repository.
func (r *Repo) abbrevObjectDir() (string, bool) {
	for _, v := range []string{"GIT_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR"} {
		if r.getenv(v) != "" {
			return "", false
		}
	}
	loc, found := FindRepoForPath(r.run.dir)
	if !found {
		return "", false
	}
	if b, err := os.ReadFile(filepath.Join(loc.CommonDir, "config")); err != nil || bytes.Contains(b, []byte("objectformat")) {
		return "", false // SHA-256, or unreadable: git knows
	}
	return filepath.Join(loc.CommonDir, "objects"), true
}

// Abbreviator gives git's %h of commits a log is about to print, worked
// out from the pack indexes read in the background while git runs, so git
// is spared %h (a look-up per commit, about a sixth of git log's time on a
// 4,000-commit history).
type Abbreviator struct {
	r     *Repo
	ready chan struct{}
	o     *abbrevObjects // nil: ask git
	n     int
}

// StartAbbrev starts reading the pack indexes, or returns nil when they
// cannot tell git's answer exactly (see abbrevsInProcess) or are larger
// than maxBytes (git's own look-ups are then the cheaper way). config
// returns core.abbrev (value, and whether it is set), or known false; it is
// called in the background.
func (r *Repo) StartAbbrev(maxBytes int64, config func() (value string, set, known bool)) *Abbreviator {
	dir, ok := r.abbrevObjectDir()
	if !ok {
		return nil
	}
	idxs, size, ok := abbrevIndexes(dir)
	if !ok || size > maxBytes {
		return nil
	}
	a := &Abbreviator{r: r, ready: make(chan struct{})}
	go func() {
		defer close(a.ready)
		v, set, known := config()
		n, ok := coreAbbrevLen(v, set)
		if !known || !ok {
			return
		}
		if o, ok := readAbbrevObjects(&r.maps, dir, idxs); ok {
			a.o, a.n = o, n
		}
	}()
	return a
}

// Close releases the pack indexes read; a closed Abbreviator asks git.
func (a *Abbreviator) Close() {
	<-a.ready
	if a.o != nil {
		a.o.close()
		a.o = nil
	}
}

// Abbrevs is git's %h of each hash: in process, or from git where the
// object files could not tell (an odd core.abbrev, an unreadable index).
func (a *Abbreviator) Abbrevs(ctx context.Context, hashes []string) (map[string]string, error) {
	<-a.ready
	if a.o != nil {
		if out, ok := a.o.abbrevs(hashes, a.n); ok {
			return out, nil
		}
	}
	return a.r.Abbrevs(ctx, hashes)
}

// getenv reads the environment git would run in.
func (r *Repo) getenv(key string) string {
	if r.run.env == nil {
		return os.Getenv(key)
	}
	for i := len(r.run.env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(r.run.env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
