package gitx

// shortHashLen is how much of a commit hash git-convo's own messages and
// show's short_hash print: fixed, unlike git's %h, so no object lookup.
const shortHashLen = 12

// ShortHash is the start of hash h that git-convo prints (h itself when
// shorter).
func ShortHash(h string) string {
	if len(h) > shortHashLen {
		return h[:shortHashLen]
	}
	return h
}
