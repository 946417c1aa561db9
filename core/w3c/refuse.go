package w3c

// RefuseOptions answers a request whose options its host could not read
// (the body of the binding's POST form, a JSON object the host decodes):
// INVALID_OPTIONS with detail, in the form the DID or DID URL and accept
// ask for, as Resolve answers options it refuses itself; or the error of
// the DID or DID URL, when that is malformed too.
func RefuseOptions(didURL, accept, detail string) Response {
	req := ParseRequest(didURL, "", accept)
	if req.err != nil {
		return req.failure(req.err)
	}
	return req.failure(fail(InvalidOptions, detail))
}
