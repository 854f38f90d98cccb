package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded migrations in order; file names start with
// their version number (0001_init.sql is version 1).
func migrations() ([]migration, error) {
	entries, err := migrationFiles.ReadDir("migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		prefix, _, ok := strings.Cut(e.Name(), "_")
		if !ok {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", e.Name())
		}
		v, err := strconv.Atoi(prefix)
		if err != nil {
			return nil, fmt.Errorf("migration %s: %v", e.Name(), err)
		}
		body, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return out, nil
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// Version reports the database's schema version (PRAGMA user_version).
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, classify(s.path, err)
}

// migrate applies the missing migrations inside one immediate transaction, so
// many processes opening a new database at once apply each migration once. A
// database the prototype wrote (user_version 0 with the seed's tables) is
// adopted in place instead (adopt, with r).
func (s *Store) migrate(ctx context.Context, r *Resolver) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	latest := len(ms)
	v, err := s.Version(ctx)
	if err != nil {
		return err
	}
	if v > latest {
		return fmt.Errorf("%w: %s has schema version %d, this git-convo knows up to %d; upgrade git-convo", ErrTooNew, s.path, v, latest)
	}
	if v == latest {
		return nil
	}
	if proto, err := isPrototype(ctx, s.db); err != nil {
		return classify(s.path, err)
	} else if proto {
		return s.adopt(ctx, r, ms)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		var cur int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
			return err
		}
		if cur > latest {
			return fmt.Errorf("%w: %s has schema version %d, this git-convo knows up to %d; upgrade git-convo", ErrTooNew, s.path, cur, latest)
		}
		if cur == 0 {
			// Another process may have adopted it meanwhile; if not, a
			// prototype's tables must not meet 0001_init.sql.
			if proto, err := isPrototype(ctx, tx); err != nil || proto {
				if err == nil {
					err = fmt.Errorf("%s: the prototype's tables appeared while migrating; open it again", s.path)
				}
				return err
			}
		}
		for _, m := range ms[cur:] {
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", latest))
		return err
	})
}
