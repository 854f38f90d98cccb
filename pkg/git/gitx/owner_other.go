//go:build !unix

package gitx

// ownedByUser: git's ownership check elsewhere (Windows: the owner's SID)
// is git's to make; false hands it to git (CheckOwnership).
func ownedByUser(string, func(string) string) bool { return false }
