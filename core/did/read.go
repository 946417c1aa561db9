package did

import "github.com/didlight/didlight/core/did/sdkjson"

// The raw* types hold what a document or credential says, as strings,
// before references are resolved against the subject (which may come last
// in the JSON) and before anything is checked. A JSON null counts as absent.

type rawDocument struct {
	context        []string
	id             string
	controllers    []string
	multisig       string
	keys           []rawKey
	authentication []rawRef
	authorization  []rawRef
	credentials    []rawCredential
	services       []sdkjson.Value
	expires        string
	proofs         []rawProof
}

type rawKey struct {
	id, typ, controller, base58 string
}

// rawRef is an entry of authentication or authorization: a reference to a
// key, or a key written in place.
type rawRef struct {
	ref string
	key *rawKey
}

type rawProof struct {
	typ, created, creator, signature string
}

type rawCredential struct {
	context                  []string
	id                       string
	types                    []string
	issuer                   string
	issuanceDate, expiration string
	subject                  sdkjson.Value
	proof                    *rawCredentialProof
}

type rawCredentialProof struct {
	typ, created, method, signature string
}

func (r *rawDocument) read(d *sdkjson.Decoder) {
	for m := d.Object(); m.Next(); {
		if d.Null() {
			continue
		}
		switch m.Key() {
		case "@context":
			r.context = readStrings(d)
		case "id":
			r.id = d.Str()
		case "controller":
			r.controllers = readStringOrStrings(d)
		case "multisig":
			r.multisig = d.Str()
		case "publicKey":
			r.keys = nil
			for e := d.Array(); e.Next(); {
				r.keys = append(r.keys, readKey(d))
			}
		case "authentication":
			r.authentication = readRefs(d)
		case "authorization":
			r.authorization = readRefs(d)
		case "verifiableCredential":
			r.credentials = nil
			for e := d.Array(); e.Next(); {
				r.credentials = append(r.credentials, readCredential(d))
			}
		case "service":
			r.services = nil
			for e := d.Array(); e.Next(); {
				if d.Kind() != sdkjson.Object {
					d.Fail(errorf(ErrMalformed, "a service must be an object"))
				}
				r.services = append(r.services, d.SortedValue())
			}
		case "expires":
			r.expires = d.Str()
		case "proof":
			r.proofs = readProofs(d)
		default:
			d.Skip()
		}
	}
}

func readStrings(d *sdkjson.Decoder) []string {
	var ss []string
	for e := d.Array(); e.Next(); {
		ss = append(ss, d.Str())
	}
	return ss
}

func readStringOrStrings(d *sdkjson.Decoder) []string {
	if d.Kind() == sdkjson.String {
		return []string{d.Str()}
	}
	return readStrings(d)
}

func readKey(d *sdkjson.Decoder) rawKey {
	var k rawKey
	d.Fields(sdkjson.Field{Key: "id", Dst: &k.id}, sdkjson.Field{Key: "type", Dst: &k.typ},
		sdkjson.Field{Key: "controller", Dst: &k.controller}, sdkjson.Field{Key: "publicKeyBase58", Dst: &k.base58})
	return k
}

func readRefs(d *sdkjson.Decoder) []rawRef {
	var refs []rawRef
	for e := d.Array(); e.Next(); {
		if d.Kind() == sdkjson.String {
			refs = append(refs, rawRef{ref: d.Str()})
			continue
		}
		k := readKey(d)
		refs = append(refs, rawRef{key: &k})
	}
	return refs
}

func readProofs(d *sdkjson.Decoder) []rawProof {
	if d.Kind() == sdkjson.Object {
		return []rawProof{readProof(d)}
	}
	var ps []rawProof
	for e := d.Array(); e.Next(); {
		ps = append(ps, readProof(d))
	}
	return ps
}

func readProof(d *sdkjson.Decoder) rawProof {
	var p rawProof
	d.Fields(sdkjson.Field{Key: "type", Dst: &p.typ}, sdkjson.Field{Key: "created", Dst: &p.created},
		sdkjson.Field{Key: "creator", Dst: &p.creator}, sdkjson.Field{Key: "signatureValue", Dst: &p.signature})
	return p
}

func readCredential(d *sdkjson.Decoder) rawCredential {
	var c rawCredential
	for m := d.Object(); m.Next(); {
		if d.Null() {
			continue
		}
		switch m.Key() {
		case "@context":
			c.context = readStrings(d)
		case "id":
			c.id = d.Str()
		case "type":
			c.types = readStringOrStrings(d)
		case "issuer":
			c.issuer = d.Str()
		case "issuanceDate":
			c.issuanceDate = d.Str()
		case "expirationDate":
			c.expiration = d.Str()
		case "credentialSubject":
			if d.Kind() != sdkjson.Object {
				d.Fail(errorf(ErrMalformed, "credentialSubject must be an object"))
			}
			c.subject = d.SortedValue()
		case "proof":
			c.proof = readCredentialProof(d)
		default:
			d.Skip()
		}
	}
	return c
}

func readCredentialProof(d *sdkjson.Decoder) *rawCredentialProof {
	p := new(rawCredentialProof)
	d.Fields(sdkjson.Field{Key: "type", Dst: &p.typ}, sdkjson.Field{Key: "created", Dst: &p.created},
		sdkjson.Field{Key: "verificationMethod", Dst: &p.method}, sdkjson.Field{Key: "signature", Dst: &p.signature})
	return p
}
