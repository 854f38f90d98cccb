package trace

import (
	"fmt"
	"regexp"
	"sync"
	"time"
)

// Compiled on first use: every git-convo process links this package.
var (
	versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`) })
	uuidRe    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	})
)

// Check applies the Agent Trace schema's rules that a record built here
// could break (tests also validate against the schema file itself).
func Check(r Record) error {
	if !versionRe().MatchString(r.Version) {
		return fmt.Errorf("version %q is not major.minor.patch", r.Version)
	}
	if !uuidRe().MatchString(r.ID) {
		return fmt.Errorf("id %q is not a UUID", r.ID)
	}
	if _, err := time.Parse(time.RFC3339, r.Timestamp); err != nil {
		return fmt.Errorf("timestamp %q is not RFC 3339", r.Timestamp)
	}
	if r.Files == nil {
		return fmt.Errorf("files is missing")
	}
	if r.VCS != nil && (r.VCS.Type != "git" || r.VCS.Revision == "") {
		return fmt.Errorf("vcs %+v: want type git and a revision", *r.VCS)
	}
	for _, f := range r.Files {
		if f.Path == "" || f.Conversations == nil {
			return fmt.Errorf("file %q: path and conversations are required", f.Path)
		}
		for _, c := range f.Conversations {
			if c.Ranges == nil {
				return fmt.Errorf("file %q: a conversation without ranges", f.Path)
			}
			if c.Contributor != nil {
				switch c.Contributor.Type {
				case "human", "ai", "mixed", "unknown":
				default:
					return fmt.Errorf("file %q: contributor type %q", f.Path, c.Contributor.Type)
				}
				if len(c.Contributor.ModelID) > 250 {
					return fmt.Errorf("file %q: model_id longer than 250", f.Path)
				}
			}
			for _, rg := range c.Ranges {
				if rg.StartLine < 1 || rg.EndLine < rg.StartLine {
					return fmt.Errorf("file %q: range %d-%d", f.Path, rg.StartLine, rg.EndLine)
				}
			}
		}
	}
	return nil
}
