package gitx

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
)

// git's own typed answers (git config --type=...), the truth the
// in-process reader is tested against.

// ConfigBool returns a boolean setting as git reads it (yes/on/true/1, a
// bare key); ok is false when the key is not set, and a value git does not
// take as a boolean is an error.
func (r *Repo) ConfigBool(ctx context.Context, key string) (value, ok bool, err error) {
	s, ok, err := r.configTyped(ctx, "bool", key)
	if err != nil || !ok {
		return false, ok, err
	}
	return s == "true", true, nil
}

// ConfigInt returns an integer setting as git reads it (k, m and g
// suffixes); ok is false when the key is not set.
func (r *Repo) ConfigInt(ctx context.Context, key string) (value int64, ok bool, err error) {
	s, ok, err := r.configTyped(ctx, "int", key)
	if err != nil || !ok {
		return 0, ok, err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("git config %s: %q is not an integer", key, s)
	}
	return n, true, nil
}

func (r *Repo) configTyped(ctx context.Context, typ, key string) (string, bool, error) {
	args := []string{"config", "-z"}
	if typ != "" {
		args = append(args, "--type="+typ)
	}
	out, err := r.run.output(ctx, append(args, "--get", key)...)
	if err != nil {
		if missingKey(err) {
			return "", false, nil
		}
		return "", false, err
	}
	return string(bytes.TrimSuffix(out, []byte{0})), true, nil
}
