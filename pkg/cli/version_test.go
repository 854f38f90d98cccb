package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/store"
)

func TestWithVCS(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name       string
		stamped    string
		settings   []debug.BuildSetting
		wantCommit string
		wantDirty  bool
	}{
		{"linker stamp wins", "feedface", vcs, "feedface", false},
		{"go's vcs stamp", "", vcs, "0123456789abcdef", true},
		{"clean tree", "", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}, "abc", false},
		{"no vcs", "", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := withVCS(BuildInfo{Commit: tt.stamped}, tt.settings)
			if got.Commit != tt.wantCommit || got.Dirty != tt.wantDirty {
				t.Errorf("got commit %q dirty %v, want %q %v", got.Commit, got.Dirty, tt.wantCommit, tt.wantDirty)
			}
		})
	}
}

// TestVersionStamped links a binary the way scripts/release.sh does and checks
// that version, --version and doctor report what was stamped.
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("links a binary")
	}
	bin := filepath.Join(t.TempDir(), "git-convo")
	const ver, sha = "9.8.7-test", "0123456789abcdef0123456789abcdef01234567"
	pkg := "github.com/git-convo/git-convo/pkg/cli"
	cmd := exec.Command("go", "build", "-ldflags", "-X "+pkg+".Version="+ver+" -X "+pkg+".commit="+sha, "-o", bin, "github.com/git-convo/git-convo/cmd/git-convo")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sb := newSandbox(t)
	want := BuildInfo{Version: ver, Commit: sha, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, SchemaVersion: store.SchemaVersion()}

	r := sb.runEnv(sb.root, sb.env, "", bin, "version", "--json")
	var got BuildInfo
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("version --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if got != want {
		t.Errorf("version --json = %+v, want %+v", got, want)
	}

	r = sb.runEnv(sb.root, sb.env, "", bin, "version")
	for _, line := range []string{"git-convo " + ver, "commit           " + sha, "platform         " + want.Platform, "links-db schema  "} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("version output lacks %q:\n%s", line, r.stdout)
		}
	}
	if r := sb.runEnv(sb.root, sb.env, "", bin, "version", "extra"); r.code != ExitUsage {
		t.Errorf("version with an argument: exit %d, want %d", r.code, ExitUsage)
	}
	if r := sb.runEnv(sb.root, sb.env, "", bin, "--version"); !strings.Contains(r.stdout, ver+" (0123456789ab) "+runtime.Version()) {
		t.Errorf("--version = %q", r.stdout)
	}

	r = sb.runEnv(sb.root, sb.env, "", bin, "doctor", "--json")
	var doc struct {
		Version BuildInfo `json:"version"`
		Checks  []check   `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
	}
	if doc.Version != want {
		t.Errorf("doctor's version = %+v, want %+v", doc.Version, want)
	}
	if len(doc.Checks) == 0 || doc.Checks[0].Name != "version" || !strings.Contains(doc.Checks[0].Detail, ver) {
		t.Errorf("doctor's first check is not the version: %+v", doc.Checks)
	}
}
