//go:build unix

package gitx

import (
	"os"
	"strconv"
	"syscall"
)

// ownedByUser is git's is_path_owned_by_current_uid: lstat's owner is the
// effective user, or for root (when the path is not root's) SUDO_UID.
func ownedByUser(path string, getenv func(string) string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	euid := uint64(os.Geteuid())
	if euid == 0 {
		if st.Uid == 0 {
			return true
		}
		if id, err := strconv.ParseUint(getenv("SUDO_UID"), 10, 32); err == nil {
			euid = id
		}
	}
	return uint64(st.Uid) == euid
}
