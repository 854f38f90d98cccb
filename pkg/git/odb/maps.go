package odb

import (
	"os"
	"sync"
)

// Maps shares the mapped pack indexes of one repository among its readers
// in a process. A log's walk and its abbreviations search the same index
// for the same hashes, and a mapping of its own for each faulted every
// page they touched in twice (log -n 1000 on 403,077 objects: 133 page
// faults more a run, 0.3 to 0.8 ms). The zero value is ready; a file is
// unmapped when the last of its readers lets it go. A nil *Maps maps each
// file on its own.
type Maps struct {
	mu    sync.Mutex
	files map[string]*sharedFile
}

// sharedFile is one mapped file and the readers holding it.
type sharedFile struct {
	info  os.FileInfo // as mapped: a file replaced since is mapped anew
	data  []byte
	unmap func()
	refs  int
}

// mapFile is mapFile shared through m: the mapping of path another reader
// holds, if the file is still the one it mapped, else a new one. unmap
// lets this reader's hold go (once, however often it is called).
func (m *Maps) mapFile(path string) (data []byte, unmap func(), err error) {
	if m == nil {
		return mapFile(path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f := m.files[path]
	if f == nil || !os.SameFile(f.info, info) || f.info.Size() != info.Size() || !f.info.ModTime().Equal(info.ModTime()) {
		data, unmap, err := mapFile(path)
		if err != nil {
			return nil, nil, err
		}
		if len(data) != int(info.Size()) {
			return data, unmap, nil // changed between the two looks: not shared
		}
		f = &sharedFile{info: info, data: data, unmap: unmap}
		if m.files == nil {
			m.files = map[string]*sharedFile{}
		}
		m.files[path] = f // one mapped before it, if any, stays its readers'
	}
	f.refs++
	var once sync.Once
	return f.data, func() { once.Do(func() { m.release(path, f) }) }, nil
}

// release lets one reader's hold on f go, unmapping it after the last.
func (m *Maps) release(path string, f *sharedFile) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f.refs--; f.refs > 0 {
		return
	}
	if m.files[path] == f {
		delete(m.files, path)
	}
	f.unmap()
}
