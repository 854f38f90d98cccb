package cursor

import (
	"encoding/json"
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
	f, servers, err := readMCPFile(path)
	if err != nil {
		return "", err
	}
	entry, _ := json.Marshal(struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{bin, []string{"mcp"}})
	servers.Set(MCPServerName, entry)
	f.Top.Set("mcpServers", servers.Marshal())
	return f.Save(nil)
}

// UninstallMCPJSON removes git-convo's server from mcp.json; a file left
// with nothing else is deleted.
func UninstallMCPJSON(path string) (string, error) {
	f, servers, err := readMCPFile(path)
	if err != nil {
		return "", err
	}
	if f.Existing == nil {
		return "not present", nil
	}
	if _, ok := servers.Get(MCPServerName); !ok {
		return "not present", nil
	}
	servers.Del(MCPServerName)
	if servers.Len() == 0 && f.Top.OnlyKeys("mcpServers") {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		return "removed (the file held nothing else)", nil
	}
	f.Top.Set("mcpServers", servers.Marshal())
	if _, err := f.Save(nil); err != nil {
		return "", err
	}
	return "removed", nil
}

// readMCPFile reads mcp.json as readHooksFile does, with its mcpServers object.
func readMCPFile(path string) (f *jsonobj.File, servers *object, err error) {
	if f, _, err = readHooksFile(path); err != nil {
		return nil, nil, err
	}
	if servers, err = f.Top.Child("mcpServers", malformed(path)); err != nil {
		return nil, nil, err
	}
	return f, servers, nil
}
