package position

// maxEdits bounds the diffs Match computes (Myers' D, the lines inserted
// plus deleted, after the common start and end are set aside). A larger
// change between capture and commit is not carried: the lines fall back to
// text evidence, labelled as such, rather than cost the recorder quadratic
// memory.
const maxEdits = 2000

// Match aligns b with a by a shortest line diff (Myers' algorithm, on line
// hashes): m[j] is the index in a of b's line j when the diff keeps it, -1
// when the diff inserts it. ok is false when more than maxEdits lines
// differ.
func Match(a, b []int64) (m []int, ok bool) {
	m = make([]int, len(b))
	for j := range m {
		m[j] = -1
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		m[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		m[len(b)-1-suf] = len(a) - 1 - suf
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(x) == 0 || len(y) == 0 {
		return m, true
	}
	pairs, ok := myers(x, y)
	if !ok {
		return nil, false
	}
	for _, p := range pairs {
		m[pre+p[1]] = pre + p[0]
	}
	return m, true
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
