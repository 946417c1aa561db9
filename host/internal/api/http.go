package api

import "net/http"

// anyOrigin is the value of every answer's Access-Control-Allow-Origin,
// made once: assigning it under its canonical key costs neither the
// allocation nor the canonicalizing of Header.Set. net/http only reads
// header values, and an Add to a key copies its one-element slice.
var anyOrigin = []string{"*"}

// cors lets browser pages on other origins call both APIs, as ELA's REST
// service does (Access-Control-Allow-Origin: *). Nothing here is behind
// cookies, so no credentials are involved.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Access-Control-Allow-Origin"] = anyOrigin
		next.ServeHTTP(w, r)
	})
}

// preflight answers a CORS preflight: the methods and the headers a page may
// send (a JSON body needs Content-Type; the admin token travels in
// Authorization; W3C resolution negotiates with Accept, whose profile
// parameter's quotes browsers send only after a preflight).
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Accept, Content-Type, Authorization")
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}
