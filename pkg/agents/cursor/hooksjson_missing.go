package cursor

import "encoding/json"

// MissingHooks lists the events of specs for which the hooks.json at path
// runs no git-convo capture: an install from before an event was added
// (doctor says so; the next install adds it).
func MissingHooks(path string, specs []HookSpec) ([]string, error) {
	_, hooks, err := readHooksFile(path)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, s := range specs {
		var entries []json.RawMessage
		raw, _ := hooks.Get(s.Event)
		_ = json.Unmarshal(raw, &entries)
		ours := false
		for _, e := range entries {
			ours = ours || isOurs(e)
		}
		if !ours {
			missing = append(missing, s.Event)
		}
	}
	return missing, nil
}
