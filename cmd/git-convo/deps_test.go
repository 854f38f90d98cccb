package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every hook and read command starts this binary: what it links, it
// initialises. These packages serve nothing git-convo does (signature
// verification, transports, config parsing of go-git, the Markdown man-page
// renderer of urfave/cli, left out by the urfave_cli_no_docs build tag that
// scripts/install.sh uses).
func TestStartupLinksNoHeavyPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "urfave_cli_no_docs", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v %s", err, out)
	}
	banned := []string{
		"github.com/ProtonMail/go-crypto", "github.com/cloudflare/circl", "golang.org/x/crypto",
		"github.com/go-git/gcfg", "github.com/go-git/go-git/v5/plumbing/object", "github.com/go-git/go-git/v5/plumbing/transport",
		"github.com/go-git/go-git/v5/config", "github.com/cpuguy83/go-md2man", "github.com/russross/blackfriday",
		"encoding/gob", "net/http",
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, b := range banned {
			if pkg == b || strings.HasPrefix(pkg, b+"/") {
				t.Errorf("git-convo links %s", pkg)
			}
		}
	}
}

// git-convo's own packages do no work at start (GODEBUG=inittrace=1 counts
// what each init allocates: a regexp compiled at init is thousands of
// allocations): what a command needs it builds on first use.
func TestOwnPackagesInitNothing(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "git-convo")
	build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("go build: %v %s", err, out)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init <package> @<t> ms, <d> ms clock, <bytes> bytes, <n> allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/git-convo/") {
			continue
		}
		seen++
		if bytes, err := strconv.Atoi(f[7]); err != nil || bytes > 4096 {
			t.Errorf("%s allocates %s bytes at init", f[1], f[7])
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace for git-convo's packages:\n%s", stderr.String())
	}
}
