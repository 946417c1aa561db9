package w3c

import (
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
)

// kind is what a request asks for, which decides the forms its answer may
// take (and the default among them).
type kind uint8

const (
	kindResolve  kind = iota // a DID: its document (resolution)
	kindVersion              // a DID URL whose query names a version only: that document
	kindFragment             // a DID URL with a fragment: one entry of the document
	kindService              // a DID URL selecting services: their endpoints
)

// allowed lists the forms an answer of kind k may take, the default first.
var allowed = [...][]form{
	kindResolve:  {formResolution, formDereferencing, formDIDLD, formDIDJSON},
	kindVersion:  {formDereferencing, formResolution, formDIDLD, formDIDJSON},
	kindFragment: {formDereferencing, formDIDLD, formDIDJSON},
	kindService:  {formURIList, formDereferencing, formDIDLD, formDIDJSON},
}

// candidates lists the media types of the forms allowed for each kind, in
// order, the default first: fixed, made once.
var candidates = [...][]mediaType{
	kindResolve:  candidatesOf(allowed[kindResolve]),
	kindVersion:  candidatesOf(allowed[kindVersion]),
	kindFragment: candidatesOf(allowed[kindFragment]),
	kindService:  candidatesOf(allowed[kindService]),
}

// Request is a parsed request to resolve a DID or dereference a DID URL.
// [ParseRequest] makes one; Resolve and [ResolveVerified] answer it.
type Request struct {
	err       *Error // why it cannot be answered; nil when it can
	deref     bool   // a DID URL, not a DID: an error answers as a dereferencing result
	kind      kind
	subject   did.DID
	requested string // the DID as asked for, full form

	versionID    string // versionId: a txid, lower case once checked
	hasVersion   bool
	timeText     string    // versionTime as given
	versionTime  time.Time // and as read
	atTime       bool
	versionInURL bool // the version is a parameter of the DID URL, not an option: a bad one makes the DID URL invalid

	fragment    string // as written, percent-encoded
	hasFragment bool

	service, serviceType       string
	hasService, hasServiceType bool
	relativeRef                string // decoded: a relative reference
	hasRelativeRef             bool

	media mediaType
}

// The DID parameters (DID Resolution §DID Parameters) and resolution
// options this resolver reads. The DID parameters hl and transformKey and
// the option verificationRelationship are known but not supported
// (FEATURE_NOT_SUPPORTED); any other name is an error.
const (
	paramService            = "service"
	paramServiceType        = "serviceType"
	paramRelativeRef        = "relativeRef"
	paramVersionID          = "versionId"
	paramVersionTime        = "versionTime"
	optionExpandRelative    = "expandRelativeUrls"
	optionVerificationRel   = "verificationRelationship"
	optionAccept            = "accept"
	paramsKnown             = "service, serviceType, relativeRef, versionId, versionTime"
	optionsKnown            = "versionId, versionTime, expandRelativeUrls"
	versionTimeLayoutHint   = "an XML datetime such as 2024-06-01T12:00:00Z"
	txidHexLength           = 2 * ela.HashSize
	relativeRefNeedsService = "relativeRef selects a resource at a service endpoint: give service or serviceType too"
)

// ParseRequest reads a request: didURL, the DID or DID URL (already
// percent-decoded from the HTTP path: its own query and fragment, if any,
// as DID Core writes them); options, resolution options given apart from
// it as an HTTP query string (name=value&…, form-encoded); and accept, the
// Accept header ("" for none). A request it cannot answer (a malformed
// DID, another method, unknown parameters, a representation it does not
// give) is answered by Resolve with the error, without a history.
func ParseRequest(didURL, options, accept string) *Request {
	r := &Request{}
	r.err = r.parse(didURL, options, accept)
	return r
}

// QueryIsOptions reports whether query, the HTTP query of a request whose
// DID was appended to the binding's endpoint as it is (not
// percent-encoded), holds resolution options rather than a DID URL's own
// query: whether it names options only (versionId, versionTime,
// expandRelativeUrls, accept, verificationRelationship). The binding asks
// a client that gives options to percent-encode the DID, but clients
// append them to the DID as it is, and expect a resolution result (the
// W3C-CCG test suite does); a query that selects within the document
// (service, serviceType, relativeRef) or names anything else stays the
// DID URL's.
func QueryIsOptions(query string) bool {
	pairs, _, ok := splitQuery(query, true)
	if !ok || len(pairs) == 0 {
		return false
	}
	for _, p := range pairs {
		switch p.name {
		case paramVersionID, paramVersionTime, optionExpandRelative, optionAccept, optionVerificationRel:
		default:
			return false
		}
	}
	return true
}

// DID returns the DID the request is about, and false when the request is
// malformed (Resolve then answers with its error, reading no history).
func (r *Request) DID() (did.DID, bool) { return r.subject, r.err == nil }

// Err returns why the request cannot be answered, or nil.
func (r *Request) Err() *Error { return r.err }

func (r *Request) parse(s, options, accept string) *Error {
	r.deref = strings.ContainsAny(s, "/?#")
	u, err := parseDIDURL(s)
	if err != nil {
		return err
	}
	invalid := InvalidDID
	if u.isURL() {
		invalid = InvalidDIDURL
	}
	if u.method != did.Method {
		return fail(MethodNotSupported, "method "+echo(u.method)+": this resolver resolves did:"+did.Method+" only")
	}
	r.requested = "did:" + did.Method + ":" + u.id
	d, perr := did.Parse(r.requested)
	if perr != nil {
		return fail(invalid, echo(r.requested)+" is not a did:elastos DID (its id is letters and digits, and '.', '_' or '-' after the first, of a length the chain accepts)")
	}
	r.subject = d
	params, err := r.readParams(u)
	if err != nil {
		return err
	}
	if err := r.readOptions(options, params); err != nil {
		return err
	}
	if err := r.checkParams(); err != nil {
		return err
	}
	r.fragment, r.hasFragment = u.fragment, u.hasFragment
	switch {
	case u.path != "":
		return fail(NotFound, "did:elastos defines no DID URL path: "+echo(u.path))
	case r.hasService || r.hasServiceType:
		r.kind = kindService
	case u.hasFragment:
		r.kind = kindFragment
	case u.hasQuery:
		r.kind = kindVersion
	}
	r.media, err = negotiate(accept, candidates[r.kind])
	return err
}

// readParams reads the DID parameters of the DID URL's query; it returns
// the names read, so that options cannot give them again.
func (r *Request) readParams(u didURL) (map[string]bool, *Error) {
	seen := map[string]bool{}
	pairs, _, _ := splitQuery(u.query, false) // its escapes were checked by parseDIDURL
	for _, p := range pairs {
		switch {
		case seen[p.name]:
			return nil, fail(InvalidDIDURL, "the DID parameter "+echo(p.name)+" is given twice")
		case p.name == "hl" || p.name == "transformKey":
			return nil, fail(FeatureNotSupported, "the DID parameter "+p.name+" is not supported by did:elastos")
		}
		seen[p.name] = true
		if !r.set(p) {
			return nil, fail(InvalidDIDURL, "unknown DID parameter "+echo(p.name)+": did:elastos reads "+paramsKnown)
		}
		r.versionInURL = r.versionInURL || p.name == paramVersionID || p.name == paramVersionTime
	}
	return seen, nil
}

// readOptions reads the resolution options given apart from the DID URL:
// a version (versionId, versionTime) and expandRelativeUrls, which changes
// nothing as every DID URL of an answer is absolute already.
func (r *Request) readOptions(options string, inURL map[string]bool) *Error {
	if len(options) > maxInput {
		return fail(InvalidOptions, "the options are longer than "+strconv.Itoa(maxInput)+" bytes")
	}
	pairs, bad, ok := splitQuery(options, true)
	if !ok {
		return fail(InvalidOptions, "the option "+echo(bad)+" has a malformed %-escape")
	}
	seen := map[string]bool{}
	for _, p := range pairs {
		switch {
		case seen[p.name] || inURL[p.name]:
			return fail(InvalidOptions, "the option "+echo(p.name)+" is given twice")
		case p.name == optionVerificationRel:
			return fail(FeatureNotSupported, "the option verificationRelationship is not supported")
		case p.name == optionAccept:
			return fail(InvalidOptions, "give accept as the HTTP Accept header, not as a query option")
		case p.name == optionExpandRelative:
			if p.value != "true" && p.value != "false" {
				return fail(InvalidOptions, "expandRelativeUrls is "+echo(p.value)+", want true or false")
			}
		case p.name == paramVersionID || p.name == paramVersionTime:
			r.set(p)
		default:
			return fail(InvalidOptions, "unknown option "+echo(p.name)+": this resolver reads "+optionsKnown)
		}
		seen[p.name] = true
	}
	return nil
}

// set records a DID parameter; false when the name is not one.
func (r *Request) set(p param) bool {
	switch p.name {
	case paramService:
		r.service, r.hasService = p.value, true
	case paramServiceType:
		r.serviceType, r.hasServiceType = p.value, true
	case paramRelativeRef:
		r.relativeRef, r.hasRelativeRef = p.value, true
	case paramVersionID:
		r.versionID, r.hasVersion = p.value, true
	case paramVersionTime:
		r.timeText, r.atTime = p.value, true
	default:
		return false
	}
	return true
}

// checkParams checks the values of the parameters and options read.
func (r *Request) checkParams() *Error {
	invalidVersion := InvalidOptions
	if r.versionInURL {
		invalidVersion = InvalidDIDURL
	}
	switch {
	case r.hasVersion && r.atTime:
		return fail(invalidVersion, "versionId and versionTime exclude each other: give one")
	case r.hasService && r.service == "", r.hasServiceType && r.serviceType == "":
		return fail(InvalidDIDURL, "service and serviceType need a value")
	case r.hasRelativeRef && !r.hasService && !r.hasServiceType:
		return fail(InvalidDIDURL, relativeRefNeedsService)
	}
	if r.hasVersion {
		if len(r.versionID) != txidHexLength || strings.TrimLeft(r.versionID, "0123456789abcdefABCDEF") != "" {
			return fail(invalidVersion, "versionId "+echo(r.versionID)+" is not a transaction id (64 hex digits)")
		}
		r.versionID = strings.ToLower(r.versionID)
	}
	if r.atTime {
		t, err := time.Parse(time.RFC3339Nano, r.timeText)
		if err != nil {
			return fail(invalidVersion, "versionTime "+echo(r.timeText)+" is not "+versionTimeLayoutHint)
		}
		r.versionTime = t.UTC()
	}
	if r.hasRelativeRef {
		if err := checkRelativeRef(r.relativeRef); err != "" {
			return fail(InvalidDIDURL, "relativeRef "+echo(r.relativeRef)+" "+err)
		}
	}
	return nil
}
