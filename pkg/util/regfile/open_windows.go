//go:build windows

package regfile

import (
	"fmt"
	"os"
)

// open opens path for reading, refusing a link or junction (Windows has no
// O_NOFOLLOW; named pipes are not reachable by a file path here).
func open(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&(os.ModeSymlink|os.ModeIrregular) != 0 {
		return nil, fmt.Errorf("%s: %w (a link)", path, ErrNotRegular)
	}
	return os.Open(path)
}

func isLoop(error) bool { return false }
