package httpapi

import (
	"net/http"
	"strings"
)

// routePath is the path a request is routed on: its target as the client
// sent it, not decoded (so /v1%2FcountTokens is no route, as in a fetch
// handler), read as a WHATWG URL parser reads it, which is what the edge
// handler gets from every runtime: the query and fragment cut off, a
// backslash taken as a slash, and the dot segments (".", "..", and their
// percent-encoded forms "%2e") resolved. Both servers then answer every
// path with the same status (testdata/http/routes.json). O(len(target)).
func routePath(r *http.Request) string {
	p := r.RequestURI
	if i := strings.Index(p, "://"); i >= 0 && !strings.HasPrefix(p, "/") {
		// The absolute form, http://host/path: the path after the host.
		rest := p[i+3:]
		j := strings.IndexAny(rest, "/?#\\")
		if j < 0 {
			return "/"
		}
		p = rest[j:]
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // "*", or what a parser would take as relative to "/"
	}
	segs := strings.Split(p[1:], "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch strings.ToLower(s) {
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		case ".", "%2e":
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}
