package gitx

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-convo/git-convo/pkg/git/odb"
)

// MessagesInProcess returns commits' messages (the subject paragraph, a
// blank line, the body), read from the object files with the store opened
// once: no process. A commit it cannot read so is absent (ok false when it
// can read none: the caller may ask git).
func (r *Repo) MessagesInProcess(hashes []string) (map[string]string, bool) {
	if r.CommonDir == "" || r.ObjectFormat != "sha1" {
		return nil, false
	}
	st := odb.Open(r.CommonDir)
	defer st.Close()
	out := make(map[string]string, len(hashes))
	for _, h := range hashes {
		if len(h) != 40 || !IsFullHash(h) {
			continue
		}
		data, err := st.Typed(plumbing.NewHash(h), plumbing.CommitObject)
		if err != nil {
			continue
		}
		if c, _, err := parseCommitObject(h, data); err == nil {
			out[h] = c.Message()
		}
	}
	return out, true
}

// Message is the commit's message as MessagesInProcess reads it, from a
// commit read in process (ShowInProcess): the subject paragraph, a blank
// line, the body.
func (c *Commit) Message() string { return c.Subject + "\n\n" + c.Body }
