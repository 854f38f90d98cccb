package main

import (
	"os/exec"
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
