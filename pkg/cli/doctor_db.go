package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// dbDirCheck reports a links database directory that cannot be created or
// written: then every capture and commit records nothing, and the error log
// beside the database cannot say why. ok is false only for that failure.
func dbDirCheck(dbPath string) (check, bool) {
	dir := filepath.Dir(dbPath)
	existing := dir
	for {
		st, err := os.Stat(existing)
		if err == nil {
			if !st.IsDir() {
				return check{Name: "links db", OK: false,
					Detail: fmt.Sprintf("%s cannot be created: %s is not a directory; nothing is recorded and the error log beside it cannot be written", dbPath, existing),
					Fix:    "set GIT_CONVO_DB to a path in a directory you can write"}, false
			}
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		existing = parent
	}
	f, err := os.CreateTemp(existing, ".git-convo-doctor-*")
	if err == nil {
		name := f.Name()
		f.Close()
		os.Remove(name)
		return check{}, true
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	what := "written"
	if existing != dir {
		what = "created (" + existing + " cannot be written)"
	}
	return check{Name: "links db", OK: false,
		Detail: fmt.Sprintf("%s: its directory %s cannot be %s: %v; commits and captures record nothing, and the error log beside it cannot be written", dbPath, dir, what, err),
		Fix:    "make " + existing + " writable, or set GIT_CONVO_DB to a writable path"}, false
}
