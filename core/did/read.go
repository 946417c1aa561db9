package did

import (
	"slices"

	"github.com/didlight/didlight/core/did/sdkjson"
)

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
			r.keys = readArray(d, readKey)
		case "authentication":
			r.authentication = readRefs(d)
		case "authorization":
			r.authorization = readRefs(d)
		case "verifiableCredential":
			r.credentials = readArray(d, readCredential)
		case "service":
			r.services = readArray(d, readService)
		case "expires":
			r.expires = d.Str()
		case "proof":
			r.proofs = readProofs(d)
		default:
			d.Skip()
		}
	}
}

// readArray reads an array with read, each element into a buffer on the
// stack while it fits, then into one slice of the array's length: nil for
// an empty array.
func readArray[T any](d *sdkjson.Decoder, read func(*sdkjson.Decoder) T) []T {
	var buf [4]T
	list := buf[:0]
	for e := d.Array(); e.Next(); {
		list = append(list, read(d))
	}
	if len(list) == 0 {
		return nil
	}
	return slices.Clone(list)
}

func readStrings(d *sdkjson.Decoder) []string { return readArray(d, (*sdkjson.Decoder).Str) }

func readService(d *sdkjson.Decoder) sdkjson.Value {
	if d.Kind() != sdkjson.Object {
		d.Fail(errorf(ErrMalformed, "a service must be an object"))
	}
	return d.SortedValue()
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

func readRefs(d *sdkjson.Decoder) []rawRef { return readArray(d, readRef) }

func readRef(d *sdkjson.Decoder) rawRef {
	if d.Kind() == sdkjson.String {
		return rawRef{ref: d.Str()}
	}
	k := readKey(d)
	return rawRef{key: &k}
}

func readProofs(d *sdkjson.Decoder) []rawProof {
	if d.Kind() == sdkjson.Object {
		return []rawProof{readProof(d)}
	}
	return readArray(d, readProof)
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
