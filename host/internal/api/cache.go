package api

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// HTTP caching of the answers that depend only on what was asked and the
// head the node answers at: DID resolution by GET (the W3C binding) and
// the REST API's blocks and confirms. Their ETag is made from the request
// (path, query, Accept) and the head (a chain's tip hash, a light node's
// or EID follower's head block), before the answer is built, so that a
// request naming it in If-None-Match is answered 304 without building
// anything. An answer is built at the head or a later one, never an
// earlier: at worst a cache asks again for an answer it had. The tags are
// weak (W/): the same answer compressed or not has the same one. They are
// the same on every node at the same head, so that a client may ask
// another follower behind a load balancer.

// cacheControl is the Cache-Control of the answers with an ETag.
func cacheControl(maxAge time.Duration) []string {
	if maxAge <= 0 {
		return []string{"no-cache"} // a cache may keep it, and asks each time
	}
	return []string{"public, max-age=" + strconv.FormatInt(int64(maxAge/time.Second), 10)}
}

// noStoreControl is the Cache-Control of an answer no cache may keep: a
// failure.
var noStoreControl = []string{"no-store"}

// notModified sets the caching headers of an answer to what key names
// (the request as the answer depends on it) at the node's head, and
// answers 304 when the request's If-None-Match names the answer's ETag:
// then it reports true, and the caller writes nothing. A request that asks
// for a fresh answer (Cache-Control: no-cache, or Pragma: no-cache) is
// never answered 304.
func (s *Server) notModified(w http.ResponseWriter, r *http.Request, key ...string) bool {
	tag := s.etag(key...)
	h := w.Header()
	h["Etag"] = []string{tag}
	h["Cache-Control"] = s.cacheControl
	if inm := r.Header.Get("If-None-Match"); inm != "" && !wantsFresh(r) && etagListed(inm, tag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// uncache drops the caching headers notModified set, for an answer that
// is a failure of the node or its upstream, which the next request may not
// meet.
func uncache(w http.ResponseWriter) {
	h := w.Header()
	delete(h, "Etag")
	h["Cache-Control"] = noStoreControl
}

// etag returns the weak ETag of the answer to key at the node's head.
func (s *Server) etag(key ...string) string {
	d := sha256.New()
	var head [40]byte
	if s.chain != nil {
		_, hash, _ := s.chain.Tip()
		copy(head[:], hash[:])
	} else {
		height, at, _ := s.light.Head()
		binary.BigEndian.PutUint64(head[:8], height)
		binary.BigEndian.PutUint64(head[8:16], uint64(at.UnixNano()))
	}
	d.Write(head[:])
	for _, k := range key {
		d.Write([]byte(k))
		d.Write([]byte{0})
	}
	var sum [sha256.Size]byte
	return `W/"` + hex.EncodeToString(d.Sum(sum[:0])[:16]) + `"`
}

// wantsFresh reports whether a request asks for an answer made now, not
// a 304 for the one its cache holds.
func wantsFresh(r *http.Request) bool {
	for _, v := range r.Header.Values("Cache-Control") {
		for d := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(d), "no-cache") {
				return true
			}
		}
	}
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Pragma")), "no-cache")
}

// etagListed reports whether an If-None-Match list names tag, compared
// weakly (RFC 9110 13.1.2): "*", or a tag equal to it with or without W/.
func etagListed(list, tag string) bool {
	tag = strings.TrimPrefix(tag, "W/")
	for t := range strings.SplitSeq(list, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}
