package cursor

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Association sources: how a conversation was found to belong to a repository.
const (
	ViaWorkspaceStorage = "workspaceStorage"    // a workspace DB's composer.composerData, mapped through workspace.json
	ViaComposerHeaders  = "composerHeaders"     // the global composer.composerHeaders
	ViaWorkspaceID      = "workspaceIdentifier" // composerData's workspaceIdentifier
	ViaProjectLayouts   = "projectLayouts"      // messageRequestContext's project root paths
	ViaEditedFiles      = "editedFiles"         // codeBlockData / originalFileStates inside the repository
)

// ComposerIDs lists every conversation in the database (a key-range scan of
// composerData:, keys only).
func (d *DB) ComposerIDs(ctx context.Context) ([]string, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT key FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;'`)
	if err != nil {
		return nil, d.classify(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out = append(out, strings.TrimPrefix(k, "composerData:"))
	}
	return out, rows.Err()
}

// itemValue reads one ItemTable value.
func (d *DB) itemValue(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := d.db.QueryRowContext(ctx, `SELECT value FROM ItemTable WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return v, d.classify(err)
}

// Found is a conversation FindForRoots found: the first of the roots it
// belongs to, and the associations that said so.
type Found struct {
	Root string
	Via  []string
}

// FindForRoots returns the conversations that belong to the repository
// whose work trees are roots, with the sources that said so, in one pass
// over the database. It uses every association Cursor has had: workspace
// DBs (through workspace.json), the global composer.composerHeaders, each
// composerData's workspaceIdentifier, messageRequestContext project
// layouts, and edited files inside a root. userDir is Cursor's User
// directory (holding globalStorage and workspaceStorage); "" skips the
// workspace DBs.
func (d *DB) FindForRoots(ctx context.Context, userDir string, roots []string) (map[string]Found, error) {
	found := map[string]map[string]bool{}
	first := map[string]int{}
	hit := 0 // the root the last successful match was in
	add := func(id, via string) {
		if id == "" {
			return
		}
		if found[id] == nil {
			found[id] = map[string]bool{}
			first[id] = hit
		}
		first[id] = min(first[id], hit)
		found[id][via] = true
	}
	belongs := func(p string) bool {
		p = NormalizeFSPath(p)
		for i, root := range roots {
			if pathsOverlap(p, root) {
				hit = i
				return true
			}
		}
		return false
	}

	if userDir != "" {
		workspaceComposers(ctx, userDir, belongs, func(id string) { add(id, ViaWorkspaceStorage) })
	}
	if raw, err := d.itemValue(ctx, "composer.composerHeaders"); err == nil {
		var h struct {
			AllComposers []json.RawMessage `json:"allComposers"`
		}
		if json.Unmarshal(raw, &h) == nil {
			for _, c := range h.AllComposers {
				var e struct {
					ComposerID          string          `json:"composerId"`
					WorkspaceIdentifier json.RawMessage `json:"workspaceIdentifier"`
				}
				if json.Unmarshal(c, &e) == nil && anyPath(e.WorkspaceIdentifier, belongs) {
					add(e.ComposerID, ViaComposerHeaders)
				}
			}
		}
	}
	ids, err := d.ComposerIDs(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		raw, err := d.value(ctx, "composerData:"+id)
		if err != nil {
			continue
		}
		var cj struct {
			WorkspaceIdentifier json.RawMessage `json:"workspaceIdentifier"`
			composerJSON
		}
		if json.Unmarshal(raw, &cj) != nil {
			continue
		}
		if anyPath(cj.WorkspaceIdentifier, belongs) {
			add(id, ViaWorkspaceID)
		}
		for _, f := range editedFiles(cj.composerJSON) {
			if belongs(f.Path) && f.Path != roots[hit] {
				add(id, ViaEditedFiles)
				break
			}
		}
		if d.projectLayoutsMatch(ctx, id, belongs) {
			add(id, ViaProjectLayouts)
		}
	}
	out := make(map[string]Found, len(found))
	for id, vias := range found {
		f := Found{Root: roots[first[id]]}
		for v := range vias {
			f.Via = append(f.Via, v)
		}
		sort.Strings(f.Via)
		out[id] = f
	}
	return out, nil
}

// projectLayoutsMatch reads the conversation's messageRequestContext rows
// (one key range) and checks their project root paths.
func (d *DB) projectLayoutsMatch(ctx context.Context, id string, belongs func(string) bool) bool {
	rows, err := d.db.QueryContext(ctx, `SELECT value FROM cursorDiskKV WHERE key >= ? AND key < ?`,
		"messageRequestContext:"+id+":", "messageRequestContext:"+id+";")
	if err != nil {
		return false
	}
	defer rows.Close()
	for rows.Next() {
		var v []byte
		if rows.Scan(&v) != nil {
			return false
		}
		var mrc struct {
			ProjectLayouts []json.RawMessage `json:"projectLayouts"`
		}
		if json.Unmarshal(v, &mrc) != nil {
			continue
		}
		for _, pl := range mrc.ProjectLayouts {
			// Each layout is an object, or a JSON string holding one.
			var s string
			if json.Unmarshal(pl, &s) == nil {
				pl = json.RawMessage(s)
			}
			var layout struct {
				RootPath string `json:"rootPath"`
				ListDir  struct {
					Root struct {
						AbsPath string `json:"absPath"`
					} `json:"directoryTreeRoot"`
				} `json:"listDirV2Result"`
			}
			if json.Unmarshal(pl, &layout) == nil {
				if layout.ListDir.Root.AbsPath != "" && belongs(layout.ListDir.Root.AbsPath) {
					return true
				}
				if filepath.IsAbs(layout.RootPath) && belongs(layout.RootPath) {
					return true
				}
			}
		}
	}
	return false
}

// workspaceComposers reads workspaceStorage/*/workspace.json and, for the
// workspaces whose folder belongs, their DB's composer.composerData: add
// is called with each id, right after belongs said yes to its folder.
func workspaceComposers(ctx context.Context, userDir string, belongs func(string) bool, add func(id string)) {
	dirs, _ := filepath.Glob(filepath.Join(userDir, "workspaceStorage", "*", "workspace.json"))
	for _, wj := range dirs {
		b, err := os.ReadFile(wj)
		if err != nil {
			continue
		}
		var w struct {
			Folder    string `json:"folder"`
			Workspace string `json:"workspace"`
		}
		if json.Unmarshal(b, &w) != nil {
			continue
		}
		folder := w.Folder
		if folder == "" {
			folder = w.Workspace
		}
		if folder == "" || !belongs(uriPath(folder)) {
			continue
		}
		db, err := OpenDB(ctx, filepath.Join(filepath.Dir(wj), "state.vscdb"))
		if err != nil {
			continue
		}
		if raw, err := db.itemValue(ctx, "composer.composerData"); err == nil {
			var cd struct {
				AllComposers []struct {
					ComposerID string `json:"composerId"`
				} `json:"allComposers"`
			}
			if json.Unmarshal(raw, &cd) == nil {
				for _, c := range cd.AllComposers {
					add(c.ComposerID)
				}
			}
		}
		db.Close()
	}
}

// anyPath reports whether any path-like string in a JSON value (fsPath,
// path, external, or a file URI) satisfies ok.
func anyPath(raw json.RawMessage, ok func(string) bool) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			if strings.HasPrefix(x, "file://") || filepath.IsAbs(x) {
				return ok(uriPath(x))
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

func uriPath(s string) string {
	if strings.HasPrefix(s, "file://") {
		if u, err := url.Parse(s); err == nil {
			return NormalizeFSPath(u.Path)
		}
	}
	return NormalizeFSPath(s)
}

// pathsOverlap: p is inside root, or root is inside p (a workspace folder
// that holds the repository).
func pathsOverlap(p, root string) bool {
	if p == "" || root == "" {
		return false
	}
	p, root = filepath.Clean(p), filepath.Clean(root)
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) || strings.HasPrefix(root, p+string(filepath.Separator))
}
