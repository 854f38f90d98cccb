// Package agenttrace reads Agent Trace records that other tools write on
// refs/notes/agent-trace. Unlike git-convo's own refs/notes/convo, that ref
// is anyone's: a record is taken only when it validates against the Agent
// Trace schema (trace-record.schema.json, spec 0.1.0), is about the commit
// it is attached to, and names nothing outside the repository.
package agenttrace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// Ref is where other tools write Agent Trace records.
const Ref = "refs/notes/agent-trace"

// Bounds on one note: a larger note, or the records past MaxRecords, are
// skipped and counted.
const (
	MaxNoteBytes = 8 << 20
	MaxRecords   = 1000
	MaxRanges    = 100_000 // over a record's files
)

var (
	versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`) })
	uuidRe    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	})
)

// Note is what one commit's note yields.
type Note struct {
	Records []Record // valid records about the commit
	Skipped []error  // why each other record (or the whole note) was skipped
}

// Record is a valid record and its lines, each range with the contributor
// that applies to it (a range may override its conversation's).
type Record struct {
	trace.Record
	Lines []Lines
}

// Lines is a run of lines of one file and who the record says wrote them.
type Lines struct {
	Path        string
	Start, End  int
	Contributor trace.Contributor // type ai, human, mixed or unknown
	URL         string            // the conversation, "" for none
}

// rangeOverrides is the part of a record trace.Record does not keep.
type rangeOverrides struct {
	Files []struct {
		Conversations []struct {
			Ranges []struct {
				Contributor *trace.Contributor `json:"contributor"`
			} `json:"ranges"`
		} `json:"conversations"`
	} `json:"files"`
}

// lines lists r's ranges with the contributor of each (raw: the record).
func lines(r trace.Record, raw []byte) []Lines {
	var ov rangeOverrides
	_ = json.Unmarshal(raw, &ov) // raw validated: the shapes match
	var out []Lines
	for i, f := range r.Files {
		for j, c := range f.Conversations {
			for k, rg := range c.Ranges {
				who := trace.Contributor{Type: "unknown"}
				if c.Contributor != nil {
					who = *c.Contributor
				}
				if i < len(ov.Files) && j < len(ov.Files[i].Conversations) && k < len(ov.Files[i].Conversations[j].Ranges) {
					if o := ov.Files[i].Conversations[j].Ranges[k].Contributor; o != nil {
						who = *o
					}
				}
				out = append(out, Lines{Path: f.Path, Start: rg.StartLine, End: rg.EndLine, Contributor: who, URL: c.URL})
			}
		}
	}
	return out
}

// Parse reads commit's note: one record, a JSON array of records (as the
// spec's reference reader accepts), or one record per line (as git-convo
// writes its own ref).
func Parse(commit string, b []byte) Note {
	var n Note
	if len(b) > MaxNoteBytes {
		n.Skipped = append(n.Skipped, fmt.Errorf("a note of %d bytes, over %d", len(b), MaxNoteBytes))
		return n
	}
	var raws []json.RawMessage
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0:
		return n
	case t[0] == '[':
		if err := json.Unmarshal(t, &raws); err != nil {
			n.Skipped = append(n.Skipped, fmt.Errorf("not a JSON array of records: %v", err))
			return n
		}
	default:
		for line := range bytes.SplitSeq(t, []byte{'\n'}) {
			if line = bytes.TrimSpace(line); len(line) > 0 {
				raws = append(raws, line)
			}
		}
		// One record pretty-printed over many lines.
		if len(raws) > 1 && json.Valid(t) {
			raws = []json.RawMessage{t}
		}
	}
	for i, raw := range raws {
		if i >= MaxRecords {
			n.Skipped = append(n.Skipped, fmt.Errorf("%d records past %d", len(raws)-MaxRecords, MaxRecords))
			break
		}
		r, err := Validate(raw)
		if err == nil && (r.VCS == nil || !strings.EqualFold(r.VCS.Revision, commit)) {
			err = errors.New("the record is about another commit (vcs.revision)")
		}
		if err != nil {
			n.Skipped = append(n.Skipped, err)
			continue
		}
		n.Records = append(n.Records, Record{Record: r, Lines: lines(r, raw)})
	}
	return n
}

// Validate decodes one record and applies the schema's rules (types,
// required fields, enums, the version pattern, uuid, date-time and uri
// formats, model_id's length, minimum line 1), and git-convo's: ranges
// run forwards, paths stay in the repository, shown strings hold no
// control character.
func Validate(raw []byte) (trace.Record, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return trace.Record{}, fmt.Errorf("not JSON: %v", err)
	}
	if err := schema(v); err != nil {
		return trace.Record{}, fmt.Errorf("not an Agent Trace record: %v", err)
	}
	var r trace.Record
	if err := json.Unmarshal(raw, &r); err != nil {
		return trace.Record{}, fmt.Errorf("not an Agent Trace record: %v", err)
	}
	if err := trace.Check(r); err != nil {
		return trace.Record{}, fmt.Errorf("not an Agent Trace record: %v", err)
	}
	ranges := 0
	for _, f := range r.Files {
		if err := gitai.CheckPath(f.Path); err != nil {
			return trace.Record{}, err
		}
		for _, c := range f.Conversations {
			if ranges += len(c.Ranges); ranges > MaxRanges {
				return trace.Record{}, fmt.Errorf("over %d ranges", MaxRanges)
			}
			for _, rg := range c.Ranges {
				if rg.EndLine > gitai.MaxLine {
					return trace.Record{}, fmt.Errorf("line %d", rg.EndLine)
				}
			}
			if err := plain(c.URL); err != nil {
				return trace.Record{}, err
			}
			if c.Contributor != nil {
				if err := plain(c.Contributor.ModelID); err != nil {
					return trace.Record{}, err
				}
			}
		}
	}
	var ov rangeOverrides
	_ = json.Unmarshal(raw, &ov)
	for _, f := range ov.Files {
		for _, c := range f.Conversations {
			for _, rg := range c.Ranges {
				if rg.Contributor != nil {
					if err := plain(rg.Contributor.ModelID); err != nil {
						return trace.Record{}, err
					}
				}
			}
		}
	}
	if r.Tool != nil {
		if err := plain(r.Tool.Name + r.Tool.Version); err != nil {
			return trace.Record{}, err
		}
	}
	return r, nil
}

func plain(s string) error {
	if len(s) > 2048 {
		return fmt.Errorf("a string of %d bytes", len(s))
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("a string holds control character %U", r)
		}
	}
	return nil
}

// ToolName is the tool a record names, "" when it names none.
func ToolName(r trace.Record) string {
	if r.Tool == nil {
		return ""
	}
	return r.Tool.Name
}

// schema checks the JSON value v against trace-record.schema.json, by
// hand: its rules are few, and the binary links no schema library
// (docs/dependencies.md). TestValidateAgreesWithSchema holds the two
// together.
func schema(v any) error {
	rec, ok := v.(map[string]any)
	if !ok {
		return errors.New("not an object")
	}
	for _, k := range []string{"version", "id", "timestamp", "files"} {
		if _, ok := rec[k]; !ok {
			return fmt.Errorf("%s is missing", k)
		}
	}
	s, ok := rec["version"].(string)
	if !ok || !versionRe().MatchString(s) {
		return errors.New("version is not major.minor.patch")
	}
	if s, ok := rec["id"].(string); !ok || !uuidRe().MatchString(s) {
		return errors.New("id is not a UUID")
	}
	if s, ok := rec["timestamp"].(string); !ok || !dateTime(s) {
		return errors.New("timestamp is not an RFC 3339 date-time")
	}
	if x, ok := rec["vcs"]; ok {
		o, ok := x.(map[string]any)
		if !ok {
			return errors.New("vcs is not an object")
		}
		typ, ok1 := o["type"].(string)
		_, ok2 := o["revision"].(string)
		if !ok1 || !ok2 || !oneOf(typ, "git", "jj", "hg", "svn") {
			return errors.New("vcs needs a type (git, jj, hg, svn) and a revision")
		}
	}
	if x, ok := rec["tool"]; ok {
		o, ok := x.(map[string]any)
		if !ok || !optString(o, "name") || !optString(o, "version") {
			return errors.New("tool is not {name, version} strings")
		}
	}
	if x, ok := rec["metadata"]; ok {
		if _, ok := x.(map[string]any); !ok {
			return errors.New("metadata is not an object")
		}
	}
	files, ok := rec["files"].([]any)
	if !ok {
		return errors.New("files is not an array")
	}
	for _, f := range files {
		if err := schemaFile(f); err != nil {
			return err
		}
	}
	return nil
}

func schemaFile(v any) error {
	f, ok := v.(map[string]any)
	if !ok {
		return errors.New("a file is not an object")
	}
	if _, ok := f["path"].(string); !ok {
		return errors.New("a file without a path")
	}
	convs, ok := f["conversations"].([]any)
	if !ok {
		return errors.New("a file without a conversations array")
	}
	for _, c := range convs {
		o, ok := c.(map[string]any)
		if !ok {
			return errors.New("a conversation is not an object")
		}
		if x, ok := o["url"]; ok {
			if s, ok := x.(string); !ok || !uri(s) {
				return errors.New("a conversation's url is not a URI")
			}
		}
		if x, ok := o["contributor"]; ok {
			if err := schemaContributor(x); err != nil {
				return err
			}
		}
		if x, ok := o["related"]; ok {
			rel, ok := x.([]any)
			if !ok {
				return errors.New("related is not an array")
			}
			for _, r := range rel {
				ro, ok := r.(map[string]any)
				_, okT := ro["type"].(string)
				u, okU := ro["url"].(string)
				if !ok || !okT || !okU || !uri(u) {
					return errors.New("a related entry needs a type and a URI")
				}
			}
		}
		ranges, ok := o["ranges"].([]any)
		if !ok {
			return errors.New("a conversation without a ranges array")
		}
		for _, r := range ranges {
			ro, ok := r.(map[string]any)
			if !ok || !lineNo(ro["start_line"]) || !lineNo(ro["end_line"]) || !optString(ro, "content_hash") {
				return errors.New("a range needs start_line and end_line, integers from 1")
			}
			if x, ok := ro["contributor"]; ok {
				if err := schemaContributor(x); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func schemaContributor(v any) error {
	o, ok := v.(map[string]any)
	if !ok {
		return errors.New("a contributor is not an object")
	}
	t, ok := o["type"].(string)
	if !ok || !oneOf(t, "human", "ai", "mixed", "unknown") {
		return errors.New("a contributor's type is not human, ai, mixed or unknown")
	}
	if x, ok := o["model_id"]; ok {
		s, ok := x.(string)
		if !ok || len([]rune(s)) > 250 {
			return errors.New("model_id is not a string of at most 250 characters")
		}
	}
	return nil
}

func optString(o map[string]any, k string) bool {
	x, ok := o[k]
	if !ok {
		return true
	}
	_, ok = x.(string)
	return ok
}

func lineNo(x any) bool {
	f, ok := x.(float64)
	return ok && f >= 1 && f == float64(int64(f)) && f <= 1<<53
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

func dateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// uri: an absolute URI (a scheme), as the schema's format asks.
func uri(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}
