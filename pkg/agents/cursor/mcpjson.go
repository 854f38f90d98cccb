package cursor

import (
	"encoding/json"
	"os"

	"github.com/git-convo/git-convo/pkg/util/filebackup"
	"github.com/git-convo/git-convo/pkg/util/jsonobj"
)

// MCPServerName is git-convo's key in Cursor's mcp.json.
const MCPServerName = "git-convo"

// InstallMCPJSON registers git-convo's MCP server in Cursor's mcp.json
// ({"mcpServers": {"git-convo": {"command": ..., "args": ["mcp"]}}}), merged
// like hooks.json: other servers and unknown keys are kept in order, ours is
// replaced, an unchanged file is not rewritten, a malformed one never touched.
// The bytes from before are kept in backupDir, as for hooks.json.
func InstallMCPJSON(path, bin, backupDir string) (string, error) {
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
	return f.Save(func(out []byte) error {
		return filebackup.Save(backupDir, mcpBackupKind, path, f.Existing, out)
	})
}

// mcpBackupKind names the copies of mcp.json package filebackup keeps.
const mcpBackupKind = "cursor-mcp"

// UninstallMCPJSON removes git-convo's server from mcp.json. A file exactly
// as the last install left it gets its bytes from before that install back
// (or goes, if install created it); otherwise only git-convo's entry goes,
// and a file left with nothing else is deleted.
func UninstallMCPJSON(path, backupDir string) (string, error) {
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
	if res, err := filebackup.Restore(backupDir, mcpBackupKind, path, f.Existing); err != nil || res != "" {
		return res, err
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

// MCPInstalled reports whether the mcp.json at path registers git-convo's
// server.
func MCPInstalled(path string) bool {
	f, servers, err := readMCPFile(path)
	if err != nil || f.Existing == nil {
		return false
	}
	_, ok := servers.Get(MCPServerName)
	return ok
}
