package position

// maxEdits bounds the diffs Match computes (Myers' D, the lines inserted
// plus deleted between two anchors, after their common start and end are
// set aside). A larger
// change between capture and commit is not carried: the lines fall back to
// text evidence, labelled as such, rather than cost the recorder quadratic
// memory.
const maxEdits = 2000

// Match aligns b with a by a line diff on line hashes: m[j] is the index
// in a of b's line j when the diff keeps it, -1 when the diff inserts it.
// ok is false when more than maxEdits lines differ where only Myers'
// algorithm can align them.
//
// It is a patience diff: lines that occur once in each side anchor the
// alignment first (a function's signature, a distinctive call), and only
// between anchors are the common start and end set aside and Myers'
// shortest diff run. A person's `}` after the agent's then stays the
// person's: a plain shortest diff may pair the agent's `}` with it.
func Match(a, b []int64) (m []int, ok bool) {
	m = make([]int, len(b))
	for j := range m {
		m[j] = -1
	}
	if !align(a, b, 0, 0, m) {
		return nil, false
	}
	return m, true
}

// align fills m for a[ao:ao+len(a)] against b[bo:bo+len(b)].
func align(a, b []int64, ao, bo int, m []int) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	if anchors := uniqueAnchors(a, b); len(anchors) > 0 {
		pi, pj := 0, 0
		for _, p := range anchors {
			if !align(a[pi:p[0]], b[pj:p[1]], ao+pi, bo+pj, m) {
				return false
			}
			m[bo+p[1]] = ao + p[0]
			pi, pj = p[0]+1, p[1]+1
		}
		return align(a[pi:], b[pj:], ao+pi, bo+pj, m)
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		m[bo+pre] = ao + pre
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		m[bo+len(b)-1-suf] = ao + len(a) - 1 - suf
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(x) == 0 || len(y) == 0 {
		return true
	}
	pairs, ok := myers(x, y)
	if !ok {
		return false
	}
	for _, p := range pairs {
		m[bo+pre+p[1]] = ao + pre + p[0]
	}
	return true
}

// uniqueAnchors returns the pairs (i, j) of lines that occur once in a and
// once in b, the longest run of them in the same order in both (patience
// sorting), in order.
func uniqueAnchors(a, b []int64) [][2]int {
	type seen struct{ na, nb, i, j int }
	count := map[int64]*seen{}
	for i, h := range a {
		s := count[h]
		if s == nil {
			s = &seen{}
			count[h] = s
		}
		s.na++
		s.i = i
	}
	for j, h := range b {
		if s := count[h]; s != nil {
			s.nb++
			s.j = j
		}
	}
	var pairs [][2]int // in a's order
	for i, h := range a {
		if s := count[h]; s.na == 1 && s.nb == 1 {
			pairs = append(pairs, [2]int{i, s.j})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// Longest increasing subsequence of j: piles hold the index of the
	// pair ending the best run of each length; prev links the runs.
	var piles []int
	prev := make([]int, len(pairs))
	for k, p := range pairs {
		lo, hi := 0, len(piles)
		for lo < hi {
			mid := (lo + hi) / 2
			if pairs[piles[mid]][1] < p[1] {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		prev[k] = -1
		if lo > 0 {
			prev[k] = piles[lo-1]
		}
		if lo == len(piles) {
			piles = append(piles, k)
		} else {
			piles[lo] = k
		}
	}
	out := make([][2]int, len(piles))
	for k, n := piles[len(piles)-1], len(piles)-1; k >= 0; k, n = prev[k], n-1 {
		out[n] = pairs[k]
	}
	return out
}

// myers returns the pairs (i, j) of equal lines a shortest edit script from
// a to b keeps, with the V array of each step kept for the walk back.
func myers(a, b []int64) ([][2]int, bool) {
	n, mm := len(a), len(b)
	maxD := min(n+mm, maxEdits)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int32(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < mm && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = int32(x)
			if x >= n && y >= mm {
				return walkBack(trace, d, n, mm), true
			}
		}
	}
	return nil, false
}

// walkBack follows the kept V arrays from (n, m) to (0, 0) and returns the
// diagonal moves (kept lines). trace[d] holds V[-d-1 .. d+1] before step d.
func walkBack(trace [][]int32, d, n, m int) [][2]int {
	var pairs [][2]int
	x, y := n, m
	for ; d > 0; d-- {
		v := trace[d]
		at := func(k int) int { return int(v[k+d+1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			pairs = append(pairs, [2]int{x, y})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		pairs = append(pairs, [2]int{x, y})
	}
	return pairs
}
