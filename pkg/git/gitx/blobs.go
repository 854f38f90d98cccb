package gitx

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FilesAt returns the content of paths (relative to the top level, "/"
// separated) in commit, read by one `git cat-file --batch` as
// "<commit>:<path>"; a path holding a line break cannot be named so, and
// `git ls-tree -z` names its blob first. A path that is not a file there
// (deleted, a submodule) is absent.
func (r *Repo) FilesAt(ctx context.Context, commit string, paths []string) (map[string][]byte, error) {
	var names, objects, odd []string
	for _, p := range paths {
		if strings.ContainsAny(p, "\n\r") {
			odd = append(odd, p)
			continue
		}
		names, objects = append(names, p), append(objects, commit+":"+p)
	}
	if len(odd) > 0 {
		list, err := r.run.output(ctx, append([]string{"--literal-pathspecs", "ls-tree", "-z", "--full-tree", commit, "--"}, odd...)...)
		if err != nil {
			return nil, err
		}
		for _, rec := range strings.Split(string(list), "\x00") {
			meta, name, ok := strings.Cut(rec, "\t")
			if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
				names, objects = append(names, name), append(objects, f[2])
			}
		}
	}
	return r.catBlobs(ctx, names, objects)
}

// catBlobs reads objects (one a line, as cat-file --batch takes them) with
// one git cat-file, keyed by names.
func (r *Repo) catBlobs(ctx context.Context, names, objects []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(objects) == 0 {
		return out, nil
	}
	cmd := r.run.cmd(ctx, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(objects, "\n") + "\n")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	br := bufio.NewReader(stdout)
	for _, name := range names {
		header, err := br.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			continue // "<name> missing"
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			break
		}
		body := make([]byte, size+1)
		if _, err := io.ReadFull(br, body); err != nil {
			break
		}
		if f[1] == "blob" {
			out[name] = body[:size]
		}
	}
	_, _ = io.Copy(io.Discard, br)
	if err := cmd.Wait(); err != nil {
		return nil, &Error{Args: []string{"cat-file", "--batch"}, Stderr: stderr.String(), Err: err}
	}
	return out, nil
}

// MadeMs is when commit hash was made, to the millisecond, as its loose
// object's modification time says, when that lies in the commit's own
// second (or the next: the object is written just after the commit time
// is read). 0 when unknown: packed, an object directory elsewhere, or a
// time that is not the commit's (an older object touched again, a commit
// date set by hand).
func (r *Repo) MadeMs(hash string, committed time.Time) int64 {
	if len(hash) < 3 || r.CommonDir == "" {
		return 0
	}
	fi, err := os.Stat(filepath.Join(r.CommonDir, "objects", hash[:2], hash[2:]))
	if err != nil {
		return 0
	}
	ms, sec := fi.ModTime().UnixMilli(), committed.Unix()*1000
	if ms < sec || ms >= sec+2000 {
		return 0
	}
	return ms
}
