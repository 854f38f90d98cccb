package cursor

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/git-convo/git-convo/pkg/jsonobj"
)

// MCPServerName is git-convo's key in Cursor's mcp.json.
const MCPServerName = "git-convo"

// InstallMCPJSON registers git-convo's MCP server in Cursor's mcp.json
// ({"mcpServers": {"git-convo": {"command": ..., "args": ["mcp"]}}}), merged
// like hooks.json: other servers and unknown keys are kept in order, ours is
// replaced, an unchanged file is not rewritten, a malformed one never touched.
func InstallMCPJSON(path, bin string) (string, error) {
	top, servers, existing, err := readMCPFile(path)
	if err != nil {
		return "", err
	}
	entry, _ := json.Marshal(struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{bin, []string{"mcp"}})
	servers.Set(MCPServerName, entry)
	top.Set("mcpServers", servers.Marshal())
	return writeIfChanged(path, existing, top.Marshal(), nil)
}

// UninstallMCPJSON removes git-convo's server from mcp.json; a file left
// with nothing else is deleted.
func UninstallMCPJSON(path string) (string, error) {
	top, servers, existing, err := readMCPFile(path)
	if err != nil {
		return "", err
	}
	if existing == nil {
		return "not present", nil
	}
	if _, ok := servers.Get(MCPServerName); !ok {
		return "not present", nil
	}
	servers.Del(MCPServerName)
	if servers.Len() == 0 && top.OnlyKeys("mcpServers") {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		return "removed (the file held nothing else)", nil
	}
	top.Set("mcpServers", servers.Marshal())
	if _, err := writeIfChanged(path, existing, top.Marshal(), nil); err != nil {
		return "", err
	}
	return "removed", nil
}

func readMCPFile(path string) (top, servers *object, existing []byte, err error) {
	top, _, existing, err = readHooksFile(path)
	if err != nil {
		return nil, nil, existing, err
	}
	servers = jsonobj.New()
	if raw, ok := top.Get("mcpServers"); ok {
		if servers, err = jsonobj.Parse(raw); err != nil {
			return nil, nil, existing, fmt.Errorf("%w: %s: \"mcpServers\" is not an object (fix or move it; git-convo will not overwrite it)", ErrMalformedHooksJSON, path)
		}
	}
	return top, servers, existing, nil
}
