package cli

import "path/filepath"

// hooksBackupDir keeps the bytes of the hooks.json files install changed,
// beside links.sqlite (not beside hooks.json: a project's .cursor/ is in its
// work tree), so uninstall restores them exactly ("" when there is no data
// directory: nothing is kept).
func (env *Env) hooksBackupDir() string {
	p, err := env.dbPath()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "hooks-json-backup")
}
