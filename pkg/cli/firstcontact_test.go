package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// readmeBlock is the first ```sh block of README.md after the line that
// starts with heading.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skipf("README.md: %v", err)
	}
	_, after, ok := strings.Cut(string(b), "\n"+heading)
	if !ok {
		t.Fatalf("README.md has no %q", heading)
	}
	_, block, _ := strings.Cut(after, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	return strings.Split(strings.TrimSpace(block), "\n")
}

// newcomerEnv is a fresh account: an empty HOME, a PATH with the system's
// directories only (no ~/.local/bin), and no PREFIX.
func newcomerEnv(t *testing.T, extraPath ...string) (home string, env []string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	path := strings.Join(append(extraPath, "/usr/local/bin", "/usr/bin", "/bin"), string(os.PathListSeparator))
	return home, []string{"HOME=" + home, "PATH=" + path, "LANG=C", "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}
}

// TestReadmeFromSourceOnFreshAccount runs the README's from-source line as
// written, as a newcomer would: PATH without the folder install.sh picks.
// A stub go copies the binaries this package's tests built (the build
// itself is not what is tested here, and compiling SQLite again would cost
// minutes).
func TestReadmeFromSourceOnFreshAccount(t *testing.T) {
	skipOnWindows(t)
	lines := readmeBlock(t, "**From source**")
	if len(lines) != 1 {
		t.Fatalf("the from-source block is not one line: %q", lines)
	}
	stub := t.TempDir()
	goStub := "#!/bin/sh\n" +
		"case \"$1\" in\n" +
		"env) echo go1.26.0 ;;\n" +
		"build) out=; pkg=; while [ $# -gt 0 ]; do case \"$1\" in -o) out=$2; shift ;; ./cmd/*) pkg=${1#./cmd/} ;; esac; shift; done\n" +
		"  cp \"" + filepath.Dir(binPath) + "/$pkg\" \"$out\" ;;\n" +
		"*) exit 2 ;;\n" +
		"esac\n"
	if err := os.WriteFile(filepath.Join(stub, "go"), []byte(goStub), 0o755); err != nil {
		t.Fatal(err)
	}
	home, env := newcomerEnv(t, stub)
	// As root /usr/local/bin is writable and on PATH: a non-root account
	// gets ~/.local, which is what PREFIX stands for here.
	prefix := filepath.Join(home, ".local")
	if os.Geteuid() == 0 {
		env = append(env, "PREFIX="+prefix)
	}
	cmd := exec.Command("bash", "-c", lines[0])
	cmd.Dir, cmd.Env = "../..", env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s on a fresh account: %v\n%s", lines[0], err, out)
	}
	for _, want := range []string{"==> git convo show", "Add rate limiting to the API", prefix + "/bin is not on your PATH"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: the output lacks %q:\n%s", lines[0], want, out)
		}
	}
}

// TestReadmeArchiveStepsOnFreshAccount runs the README's install lines for
// a release archive in an account with no ~/.local at all.
func TestReadmeArchiveStepsOnFreshAccount(t *testing.T) {
	skipOnWindows(t)
	home, env := newcomerEnv(t)
	archive := t.TempDir()
	for _, f := range []string{"git-convo", "git-convo-mcp", "man/man1/git-convo.1", "completions/git-convo.bash"} {
		p := filepath.Join(archive, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ran := 0
	for _, line := range readmeBlock(t, "**Linux (x86-64, arm64), Windows (x86-64) or macOS, from a release archive**") {
		if !strings.HasPrefix(line, "install ") && !strings.HasPrefix(line, "mkdir ") {
			continue // the checksum, tar and cd: about the download, not the account
		}
		ran++
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = archive, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
	if ran < 3 {
		t.Fatalf("found %d install lines in the README's archive steps", ran)
	}
	for _, f := range []string{".local/bin/git-convo", ".local/bin/git-convo-mcp", ".local/share/man/man1/git-convo.1"} {
		if fi, err := os.Stat(filepath.Join(home, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		} else if strings.HasPrefix(f, ".local/bin/") && fi.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", f)
		}
	}
}

// TestFuzzScriptRunsEveryTarget: scripts/fuzz.sh (which scripts/test.sh
// runs) finds every fuzz target of the repository by itself: each func
// Fuzz... taking a *testing.F, as go/parser sees them, in its package.
func TestFuzzScriptRunsEveryTarget(t *testing.T) {
	skipOnWindows(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") || len(fn.Type.Params.List) != 1 {
				continue
			}
			if star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr); ok {
				if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "F" {
					rel, _ := filepath.Rel(root, filepath.Dir(p))
					want = append(want, fn.Name.Name+" ./"+filepath.ToSlash(rel))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no fuzz target found: the scan is wrong")
	}
	out, err := exec.Command("bash", filepath.Join(root, "scripts", "fuzz.sh"), "--list").Output()
	if err != nil {
		t.Fatalf("scripts/fuzz.sh --list: %v", err)
	}
	got := strings.Fields(strings.ReplaceAll(string(out), " ./", "@./"))
	for i, w := range want {
		want[i] = strings.Replace(w, " ./", "@./", 1)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scripts/fuzz.sh --list:\n%s\nthe fuzz targets:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	test, err := os.ReadFile(filepath.Join(root, "scripts", "test.sh"))
	if err != nil || !strings.Contains(string(test), "scripts/fuzz.sh") {
		t.Errorf("scripts/test.sh does not run scripts/fuzz.sh: %v", err)
	}
}
