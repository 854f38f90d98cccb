package link

import (
	"strings"
	"testing"
	"time"
)

func TestScore(t *testing.T) {
	cfg := DefaultConfig()
	commitAt := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	conv := func(activityBefore time.Duration, files ...string) Conversation {
		c := Conversation{FirstSeen: commitAt.Add(-activityBefore - time.Hour), Activity: commitAt.Add(-activityBefore), Files: map[string]time.Time{}}
		for _, f := range files {
			c.Files[f] = commitAt.Add(-activityBefore)
		}
		return c
	}
	tests := []struct {
		name        string
		commit      Commit
		conv        Conversation
		wantLinked  bool
		wantScore   float64
		wantMatched string
		wantReason  string
		wantSkipped string
	}{
		{name: "all files, just now", commit: Commit{Time: commitAt, Files: []string{"a.go"}}, conv: conv(0, "a.go"),
			wantLinked: true, wantScore: 1, wantMatched: "a.go", wantReason: "1 of 1 file edited in this conversation; active at the time of the commit"},
		{name: "half the files, 2 h before", commit: Commit{Time: commitAt, Files: []string{"a.go", "b.go"}}, conv: conv(2*time.Hour, "a.go", "z.go"),
			wantLinked: true, wantScore: 0.648, wantMatched: "a.go", wantReason: "1 of 2 files edited in this conversation; last active 2 h before the commit"},
		{name: "no overlap, very recent: never linked", commit: Commit{Time: commitAt, Files: []string{"docs/x.md"}}, conv: conv(time.Minute, "a.go"),
			wantSkipped: "no file in common"},
		{name: "commit with no files", commit: Commit{Time: commitAt}, conv: conv(0, "a.go"), wantSkipped: "the commit changes no files"},
		{name: "window boundary: exactly 14 days is in", commit: Commit{Time: commitAt, Files: []string{"a.go"}}, conv: conv(14*day, "a.go"),
			wantLinked: true, wantScore: 0.7, wantMatched: "a.go"},
		{name: "window boundary: one second past is out", commit: Commit{Time: commitAt, Files: []string{"a.go"}}, conv: conv(14*day+time.Second, "a.go"),
			wantSkipped: "outside the window"},
		{name: "activity after the commit counts as current", commit: Commit{Time: commitAt, Files: []string{"a.go"}},
			conv:       Conversation{FirstSeen: commitAt.Add(-time.Hour), Activity: commitAt.Add(time.Hour), Files: map[string]time.Time{"a.go": commitAt.Add(-time.Hour)}},
			wantLinked: true, wantScore: 1, wantMatched: "a.go"},
		{name: "edit made after the commit is not in it", commit: Commit{Time: commitAt, Files: []string{"a.go"}},
			conv:        Conversation{FirstSeen: commitAt.Add(time.Hour), Activity: commitAt.Add(time.Hour), Files: map[string]time.Time{"a.go": commitAt.Add(time.Hour)}},
			wantSkipped: "no file in common"},
		{name: "edit within the clock skew still counts", commit: Commit{Time: commitAt, Files: []string{"a.go"}},
			conv:       Conversation{FirstSeen: commitAt.Add(time.Second), Activity: commitAt.Add(time.Second), Files: map[string]time.Time{"a.go": commitAt.Add(900 * time.Millisecond)}},
			wantLinked: true, wantScore: 1, wantMatched: "a.go"},
		{name: "started in the commit's second, after the commit was made", commit: Commit{Time: commitAt, Made: commitAt.Add(300 * time.Millisecond), Files: []string{"a.go"}},
			conv:        Conversation{FirstSeen: commitAt.Add(700 * time.Millisecond), Activity: commitAt.Add(800 * time.Millisecond), Files: map[string]time.Time{"a.go": commitAt.Add(800 * time.Millisecond)}},
			wantSkipped: "started after the commit"},
		{name: "started in the commit's second, before the commit was made", commit: Commit{Time: commitAt, Made: commitAt.Add(900 * time.Millisecond), Files: []string{"a.go"}},
			conv:       Conversation{FirstSeen: commitAt.Add(700 * time.Millisecond), Activity: commitAt.Add(800 * time.Millisecond), Files: map[string]time.Time{"a.go": commitAt.Add(800 * time.Millisecond)}},
			wantLinked: true, wantScore: 1, wantMatched: "a.go"},
		{name: "conversation started 3 s after the commit", commit: Commit{Time: commitAt, Files: []string{"a.go"}},
			conv:        Conversation{FirstSeen: commitAt.Add(3 * time.Second), Activity: commitAt.Add(time.Hour), Files: map[string]time.Time{"a.go": commitAt.Add(3 * time.Second)}},
			wantSkipped: "no file in common"},
		{name: "merge commit", commit: Commit{Time: commitAt, Files: []string{"a.go"}, IsMerge: true}, conv: conv(0, "a.go"),
			wantSkipped: "merge commits"},
		{name: "lockfile only", commit: Commit{Time: commitAt, Files: []string{"go.sum", "web/package-lock.json"}}, conv: conv(0, "go.sum", "web/package-lock.json"),
			wantSkipped: "lockfiles or generated"},
		{name: "code and lockfile", commit: Commit{Time: commitAt, Files: []string{"go.sum", "main.go"}}, conv: conv(0, "go.sum", "main.go"),
			wantLinked: true, wantScore: 1, wantMatched: "go.sum,main.go"},
		{name: "rename: old and new paths listed, conversation edited the new", commit: Commit{Time: commitAt, Files: []string{"new.go", "old.go"}}, conv: conv(time.Hour, "new.go"),
			wantLinked: true, wantScore: 0.649, wantMatched: "new.go"},
		{name: "lines written: confidence rises with the share", commit: Commit{Time: commitAt, Files: []string{"a.go", "b.go", "c.go", "d.go"}, AddedLines: 14},
			conv:       Conversation{FirstSeen: commitAt.Add(-time.Hour), Activity: commitAt.Add(-2 * time.Hour), Files: map[string]time.Time{"a.go": commitAt.Add(-2 * time.Hour)}, WrittenLines: 12, PositionLines: 12},
			wantLinked: true, wantScore: 0.943, wantMatched: "a.go",
			wantReason: "12 of 14 added lines written in this conversation; 1 of 4 files edited in this conversation; last active 2 h before the commit"},
		{name: "lines matched by text only weigh half", commit: Commit{Time: commitAt, Files: []string{"a.go", "b.go", "c.go", "d.go"}, AddedLines: 14},
			conv:       Conversation{FirstSeen: commitAt.Add(-time.Hour), Activity: commitAt.Add(-2 * time.Hour), Files: map[string]time.Time{"a.go": commitAt.Add(-2 * time.Hour)}, WrittenLines: 12, PositionLines: 5},
			wantLinked: true, wantScore: 0.843, wantMatched: "a.go",
			wantReason: "12 of 14 added lines written in this conversation (7 by text match only); 1 of 4 files edited in this conversation; last active 2 h before the commit"},
		{name: "lines examined, none written: a weaker link", commit: Commit{Time: commitAt, Files: []string{"a.go"}, AddedLines: 10},
			conv:       Conversation{Activity: commitAt, Files: map[string]time.Time{"a.go": commitAt}},
			wantLinked: true, wantScore: 0.5, wantMatched: "a.go",
			wantReason: "0 of 10 added lines written in this conversation; 1 of 1 file edited in this conversation; active at the time of the commit"},
		{name: "lines written in a merge still link", commit: Commit{Time: commitAt, Files: []string{"a.go"}, IsMerge: true, AddedLines: 2},
			conv:       Conversation{Activity: commitAt, Files: map[string]time.Time{"a.go": commitAt}, WrittenLines: 2, PositionLines: 2},
			wantLinked: true, wantScore: 1, wantMatched: "a.go"},
		{name: "lines written but too long ago", commit: Commit{Time: commitAt, Files: []string{"a.go"}, AddedLines: 2},
			conv:        Conversation{Activity: commitAt.Add(-20 * day), Files: map[string]time.Time{"a.go": commitAt.Add(-20 * day)}, WrittenLines: 2},
			wantSkipped: "outside the window"},
		{name: "below threshold", commit: Commit{Time: commitAt, Files: strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z")}, conv: conv(13*day, "a"),
			wantSkipped: "below the threshold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Score(cfg, tt.commit, tt.conv)
			ic := NewCommit(tt.commit.Time, tt.commit.Files, tt.commit.IsMerge)
			ic.AddedLines, ic.Made = tt.commit.AddedLines, tt.commit.Made
			indexed := Score(cfg, ic, tt.conv)
			if indexed.Linked != r.Linked || indexed.Score != r.Score || strings.Join(indexed.Matched, ",") != strings.Join(r.Matched, ",") {
				t.Fatalf("NewCommit scores differently: %+v vs %+v", indexed, r)
			}
			if r.Linked != tt.wantLinked {
				t.Fatalf("Linked = %v (skipped %q, score %v), want %v", r.Linked, r.Skipped, r.Score, tt.wantLinked)
			}
			if tt.wantLinked {
				if r.Score != tt.wantScore {
					t.Errorf("Score = %v, want %v", r.Score, tt.wantScore)
				}
				if got := strings.Join(r.Matched, ","); got != tt.wantMatched {
					t.Errorf("Matched = %q, want %q", got, tt.wantMatched)
				}
				if r.Score < 0 || r.Score > 1 {
					t.Errorf("score out of range: %v", r.Score)
				}
			}
			if tt.wantReason != "" && r.Reason != tt.wantReason {
				t.Errorf("Reason = %q, want %q", r.Reason, tt.wantReason)
			}
			if !strings.Contains(r.Skipped, tt.wantSkipped) {
				t.Errorf("Skipped = %q, want it to mention %q", r.Skipped, tt.wantSkipped)
			}
		})
	}
}

func TestPathKey(t *testing.T) {
	tests := []struct {
		in       string
		folded   bool
		want     string
		wantNorm string
	}{
		{`src\auth\login.go`, false, "src/auth/login.go", "src/auth/login.go"},
		{"/src/a.go", false, "src/a.go", "src/a.go"},
		{"./src//a.go", false, "src/a.go", "src/a.go"},
		{"Src/A.go", false, "Src/A.go", "Src/A.go"},
		{"Src/A.go", true, "src/a.go", "Src/A.go"},
		{"", false, "", ""},
		{".", false, "", ""},
		{"dir with space/ünï.go", true, "dir with space/ünï.go", "dir with space/ünï.go"},
	}
	for _, tt := range tests {
		if got := PathKey(tt.in, tt.folded); got != tt.want {
			t.Errorf("PathKey(%q, %v) = %q, want %q", tt.in, tt.folded, got, tt.want)
		}
		if got := NormPath(tt.in); got != tt.wantNorm {
			t.Errorf("NormPath(%q) = %q, want %q", tt.in, got, tt.wantNorm)
		}
	}
	if !CaseInsensitiveFS("darwin") || CaseInsensitiveFS("linux") {
		t.Error("CaseInsensitiveFS: darwin folds, linux does not")
	}
}

func TestParseConfig(t *testing.T) {
	tests := []struct {
		in      map[string]string
		window  time.Duration
		thresh  float64
		wantErr bool
	}{
		{in: nil, window: 14 * 24 * time.Hour, thresh: 0.2},
		{in: map[string]string{KeyWindow: "7"}, window: 7 * 24 * time.Hour, thresh: 0.2},
		{in: map[string]string{KeyWindow: "3d", KeyThreshold: "0.5"}, window: 3 * 24 * time.Hour, thresh: 0.5},
		{in: map[string]string{KeyWindow: "36h"}, window: 36 * time.Hour, thresh: 0.2},
		{in: map[string]string{KeyWindow: "soon"}, wantErr: true},
		{in: map[string]string{KeyWindow: "-2"}, wantErr: true},
		{in: map[string]string{KeyThreshold: "2"}, wantErr: true},
		{in: map[string]string{KeyOverlapWeight: "x"}, wantErr: true},
	}
	for _, tt := range tests {
		cfg, err := ParseConfig(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseConfig(%v) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && (cfg.Window != tt.window || cfg.Threshold != tt.thresh) {
			t.Errorf("ParseConfig(%v) = window %v threshold %v", tt.in, cfg.Window, cfg.Threshold)
		}
	}
}

func TestIsNoise(t *testing.T) {
	for p, want := range map[string]bool{
		"go.sum": true, "web/package-lock.json": true, "Cargo.lock": true, "static/app.min.js": true,
		"api/v1/service.pb.go": true, "vendor/x/y.go": true, "main.go": false, "src/lock.go": false, "docs/build.md": false,
	} {
		if got := IsNoise(p); got != want {
			t.Errorf("IsNoise(%q) = %v, want %v", p, got, want)
		}
	}
}

func BenchmarkScore(b *testing.B) {
	now := time.Now()
	files := make([]string, 1000)
	conv := Conversation{FirstSeen: now.Add(-time.Hour), Activity: now, Files: map[string]time.Time{}}
	for i := range files {
		files[i] = "src/pkg/file" + string(rune('a'+i%26)) + strings.Repeat("x", i%7) + ".go"
		if i%3 == 0 {
			conv.Files[files[i]] = now
		}
	}
	c := Commit{Time: now, Files: files}
	for b.Loop() {
		Score(DefaultConfig(), c, conv)
	}
}

func TestDistinctive(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"", false}, {"   \t", false}, {"}", false}, {"\t});", false}, {"i++", false},
		{"\treturn", false}, {"continue", false}, {"end  ", false}, {"x = 1", false},
		{"return nil", true}, {"@Override", true}, {"\treturn bucket(client).take()", true},
		{"été", false}, {"日本語です", false}, {"日本語 です", true},
	} {
		if got := Distinctive(tc.line); got != tc.want {
			t.Errorf("Distinctive(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
