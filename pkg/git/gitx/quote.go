package gitx

// unquotePath undoes git's C-style quoting of a path ("dir \303\274/a\tb"),
// used where a name holds a control character, a quote, a backslash or,
// with core.quotePath on, a byte above 0x7f. Bytes come back as they were,
// valid UTF-8 or not; a name git did not quote is returned as it is.
func unquotePath(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	in := s[1 : len(s)-1]
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c != '\\' || i+1 == len(in) {
			out = append(out, c)
			continue
		}
		i++
		switch e := in[i]; e {
		case 'a':
			out = append(out, '\a')
		case 'b':
			out = append(out, '\b')
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'v':
			out = append(out, '\v')
		case 'f':
			out = append(out, '\f')
		case 'r':
			out = append(out, '\r')
		case '0', '1', '2', '3':
			if i+2 < len(in) && isOctal(in[i+1]) && isOctal(in[i+2]) {
				out = append(out, (e-'0')<<6|(in[i+1]-'0')<<3|(in[i+2]-'0'))
				i += 2
			} else {
				out = append(out, '\\', e)
			}
		default: // \" and \\, and anything git never writes, kept literal
			out = append(out, e)
		}
	}
	return string(out)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
