// Package link scores how likely it is that a conversation produced a commit.
// It is pure: no I/O, no clock, no globals; callers pass everything in.
package link

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// Config holds the scorer's settings (git config convo.*).
type Config struct {
	Window        time.Duration // how far before a commit a conversation may have been active
	OverlapWeight float64
	RecencyWeight float64
	Threshold     float64 // minimum score kept as an auto-link
	// Skew tolerates a file touch recorded slightly after the commit time:
	// git stores commit times in whole seconds, hooks in milliseconds.
	// Anything wider would let a conversation started just after a commit
	// claim it.
	Skew time.Duration
}

// DefaultConfig is the seed's algorithm: 0.7 × overlap + 0.3 × recency, a
// 14-day window, keep ≥ 0.2.
func DefaultConfig() Config {
	return Config{
		Window:        14 * 24 * time.Hour,
		OverlapWeight: 0.7,
		RecencyWeight: 0.3,
		Threshold:     0.2,
		Skew:          2 * time.Second,
	}
}

// FileOnlyCap bounds the confidence of a conversation that edited a commit's
// files but wrote none of its added lines, when the lines were examined.
const FileOnlyCap = 0.5

// TextWeight is what a line known by text match only weighs in a link's
// confidence against one known by position: a text match never makes a
// link as strong as the same count of lines found where the agent wrote
// them.
const TextWeight = 0.5

// Commit is what the scorer needs of a commit. Build it with NewCommit when
// scoring many conversations against it.
type Commit struct {
	Time       time.Time
	Files      []string // path keys, relative to the repo root
	IsMerge    bool
	AddedLines int // countable lines the commit adds (0: unknown)
	// Made is when the commit was made, to the millisecond, when known
	// (zero: only Time's second is).
	Made time.Time
	set  map[string]bool
}

// NewCommit indexes files once, so scoring each candidate costs what the
// candidate shares with the commit, not the commit's size.
func NewCommit(at time.Time, files []string, isMerge bool) Commit {
	set := make(map[string]bool, len(files))
	for _, f := range files {
		set[f] = true
	}
	return Commit{Time: at, Files: files, IsMerge: isMerge, set: set}
}

// Conversation is what the scorer needs of a candidate conversation.
type Conversation struct {
	FirstSeen time.Time
	Activity  time.Time // latest of its hook events and Cursor's lastUpdatedAt
	// Files maps each path key the conversation edited to when it first did.
	Files map[string]time.Time
	// WrittenLines is how many of the commit's added lines this
	// conversation's edits wrote: the strongest evidence there is.
	WrittenLines int
	// PositionLines is how many of WrittenLines are known by position; the
	// others matched by text only, weaker evidence that weighs half.
	PositionLines int
}

// Result is a score and its explanation.
type Result struct {
	Score   float64
	Overlap float64
	Recency float64
	Matched []string // commit files the conversation edited, sorted
	Reason  string   // for people: "1 of 2 files edited in this conversation; ..."
	Linked  bool     // score ≥ threshold and every rule passed
	Skipped string   // why it was not linked, when it was not
}

// Score rates conv against commit. An auto-link needs a file overlap above
// zero (the seed's recency-only links flood unrelated commits), a conversation
// active within the window before the commit, and a score at the threshold or
// above. Merge commits and commits whose matched files are all lockfiles or
// generated files are never linked on file overlap alone.
func Score(cfg Config, commit Commit, conv Conversation) Result {
	var r Result
	if len(commit.Files) == 0 {
		r.Skipped = "the commit changes no files"
		return r
	}
	limit := commit.Time.Add(cfg.Skew)
	counted := func(f string, at time.Time) {
		// An edit made after the commit cannot be part of it.
		if at.IsZero() || !at.After(limit) {
			r.Matched = append(r.Matched, f)
		}
	}
	// Walk the smaller side: a 1,000-file commit is scored against hundreds
	// of candidates that each share a few files.
	if commit.set != nil && len(conv.Files) < len(commit.Files) {
		for f, at := range conv.Files {
			if commit.set[f] {
				counted(f, at)
			}
		}
	} else {
		for _, f := range commit.Files {
			if at, ok := conv.Files[f]; ok {
				counted(f, at)
			}
		}
	}
	sort.Strings(r.Matched)
	r.Overlap = float64(len(r.Matched)) / float64(len(commit.Files))

	ref := conv.Activity
	if ref.After(commit.Time) {
		ref = commit.Time // active during or after the commit: as recent as it gets
	}
	age := commit.Time.Sub(ref)
	if cfg.Window > 0 {
		r.Recency = math.Max(0, 1-float64(age)/float64(cfg.Window))
	}
	r.Score = round3(cfg.OverlapWeight*r.Overlap + cfg.RecencyWeight*r.Recency)
	r.Reason = reason(len(r.Matched), len(commit.Files), conv.Activity, commit.Time)
	written := conv.WrittenLines > 0 && commit.AddedLines > 0
	switch {
	case written:
		// "The session wrote the text the commit adds" was never wrong in
		// the study of 494 commits: the confidence follows the share of the
		// commit's lines it wrote, and it links even where file overlap
		// alone would not (merges, lockfiles).
		text := max(0, conv.WrittenLines-conv.PositionLines)
		weighed := float64(conv.WrittenLines-text) + TextWeight*float64(text)
		share := math.Min(1, weighed/float64(commit.AddedLines))
		r.Score = round3(0.6 + 0.4*share)
		written := fmt.Sprintf("%d of %d added lines written in this conversation", conv.WrittenLines, commit.AddedLines)
		if text > 0 {
			written += fmt.Sprintf(" (%d by text match only)", text)
		}
		r.Reason = written + "; " + r.Reason
	case commit.AddedLines > 0:
		// The lines were examined and none is this conversation's: it only
		// edited the same files, so it stays a weaker link, and the reason
		// says so (a file match alone reads as stronger than it is).
		r.Score = math.Min(r.Score, FileOnlyCap)
		r.Reason = fmt.Sprintf("0 of %d added lines written in this conversation; %s", commit.AddedLines, r.Reason)
	}

	switch {
	case written && (cfg.Window <= 0 || age <= cfg.Window):
		r.Linked = true
	case len(r.Matched) == 0:
		r.Skipped = "no file in common"
	case cfg.Window > 0 && age > cfg.Window:
		r.Skipped = "last active " + ago(age) + " before the commit, outside the window"
	case startedAfter(cfg, commit, conv.FirstSeen):
		r.Skipped = "the conversation started after the commit"
	case commit.IsMerge:
		r.Skipped = "merge commits are not linked on file overlap alone"
	case allNoise(r.Matched):
		r.Skipped = "only lockfiles or generated files in common"
	case r.Score < cfg.Threshold:
		r.Skipped = fmt.Sprintf("score %.2f is below the threshold %.2f", r.Score, cfg.Threshold)
	default:
		r.Linked = true
	}
	return r
}

// startedAfter reports whether a conversation whose first event was at
// first began after the commit: after the millisecond it was made, when
// known (so a commit made earlier in the same second is never the
// conversation's); else beyond the clock skew after git's whole second.
func startedAfter(cfg Config, commit Commit, first time.Time) bool {
	switch {
	case first.IsZero():
		return false
	case !commit.Made.IsZero():
		return first.After(commit.Made)
	}
	return first.After(commit.Time.Add(cfg.Skew))
}

func reason(matched, total int, activity, commit time.Time) string {
	noun := "files"
	if total == 1 {
		noun = "file"
	}
	files := fmt.Sprintf("%d of %d %s edited in this conversation", matched, total, noun)
	switch d := commit.Sub(activity); {
	case activity.IsZero():
		return files
	case d <= 0:
		return files + "; active at the time of the commit"
	default:
		return files + "; last active " + ago(d) + " before the commit"
	}
}

// ago renders a duration in a link's reason: "40 s", "5 min", "2 h", "3
// days". Reasons are data (stored in links.sqlite, written into shared
// notes), so this wording stays fixed; messages to a person use
// term.Duration and term.RelativeTime.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	default:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	}
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

func allNoise(paths []string) bool {
	for _, p := range paths {
		if !IsNoise(p) {
			return false
		}
	}
	return true
}

// IsNoise reports lockfiles and generated files: dependency bumps touch them
// in every branch, so sharing them says nothing about who wrote a commit.
func IsNoise(path string) bool {
	p := strings.ToLower(path)
	base := p[strings.LastIndex(p, "/")+1:]
	switch base {
	case "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock", "npm-shrinkwrap.json",
		"go.sum", "cargo.lock", "gemfile.lock", "poetry.lock", "pipfile.lock", "uv.lock", "composer.lock",
		"podfile.lock", "pubspec.lock", "mix.lock", "flake.lock", "packages.lock.json", "gradle.lockfile":
		return true
	}
	for _, suffix := range []string{".min.js", ".min.css", ".map", ".pb.go", "_pb2.py", ".generated.go", "_generated.go", ".g.dart", ".freezed.dart"} {
		if strings.HasSuffix(base, suffix) {
			return true
		}
	}
	for _, dir := range []string{"node_modules/", "vendor/", "dist/", "build/", "__generated__/"} {
		if strings.HasPrefix(p, dir) || strings.Contains(p, "/"+dir) {
			return true
		}
	}
	return false
}
