package fork

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

func TestCut(t *testing.T) {
	for _, c := range []struct {
		name   string
		blocks []uint64
		height uint64
		drop   int
		known  bool
		bad    bool
	}{
		{"newest below", []uint64{10, 5}, 20, 0, true, false},
		{"newest at", []uint64{20, 5}, 20, 0, true, false},
		{"one above", []uint64{21, 5}, 20, 1, true, false},
		{"all given above", []uint64{30, 25}, 20, 2, false, false},
		{"none given", nil, 20, 0, false, false},
		{"out of order", []uint64{25, 30}, 20, 0, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			drop, known, err := Cut(c.blocks, c.height)
			if (err != nil) != c.bad {
				t.Fatalf("err %v, want an error: %v", err, c.bad)
			}
			if !c.bad && (drop != c.drop || known != c.known) {
				t.Errorf("Cut = %d, %v; want %d, %v", drop, known, c.drop, c.known)
			}
		})
	}
}

const request = `{"header":{"specification":"elastos/did/1.0","operation":"deactivate"},"payload":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","proof":{"type":"ECDSAsecp256r1","verificationMethod":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC#primary","signature":"c2ln"}}`

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"absent", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7}`, true},
		{"one op", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"ops":[{"txid":"ab","block":7,"time":1,"request":` + request + `}]}`, true},
		{"above the height", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"ops":[{"txid":"ab","block":8,"time":1,"request":` + request + `}]}`, false},
		{"no txid", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"ops":[{"block":7,"time":1,"request":` + request + `}]}`, false},
		{"out of order", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"ops":[{"txid":"a","block":6,"request":` + request + `},{"txid":"b","block":5,"request":` + request + `}]}`, false},
		{"bad request", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"ops":[{"txid":"a","block":6,"request":{}}]}`, false},
		{"not a DID", `{"did":"did:example:1","height":7}`, false},
		{"a credential", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC#profile","height":7}`, true},
		{"a DID URL without fragment", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC?x=1","height":7}`, false},
		{"unknown field", `{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"x":1}`, false},
		{"not JSON", `{`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, err := Decode([]byte(c.in))
			if (err == nil) != c.ok {
				t.Fatalf("Decode: %v, want success %v", err, c.ok)
			}
			if err != nil {
				return
			}
			again, err := Decode(k.Encode())
			if err != nil {
				t.Fatalf("Decode(Encode): %v", err)
			}
			if !bytes.Equal(again.Encode(), k.Encode()) {
				t.Errorf("round trip: %s, then %s", k.Encode(), again.Encode())
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7,"ops":[{"txid":"ab","block":7,"time":1,"request":` + request + `}]}`))
	f.Add([]byte(`{"did":"did:elastos:ihrmCAMnji2qUoq2SChcSnNK6nECyM4VhC","height":7}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Decode(k.Encode())
		if err != nil {
			t.Fatalf("a decoded DID does not decode once encoded: %v", err)
		}
		if !bytes.Equal(again.Encode(), k.Encode()) {
			t.Fatalf("round trip: %s, then %s", k.Encode(), again.Encode())
		}
	})
}

func TestNeeds(t *testing.T) {
	seed := sha256.Sum256([]byte("fork needs"))
	key, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		t.Fatal(err)
	}
	d := did.FromKey(key.Public())
	req, err := idop.NewDeactivate(d, did.URL{DID: d, Fragment: did.PrimaryKey}, key)
	if err != nil {
		t.Fatal(err)
	}
	op, err := idop.Decode(req)
	if err != nil {
		t.Fatal(err)
	}
	if got := Needs(op); len(got) != 1 || got[0] != d {
		t.Errorf("Needs of a deactivate signed by its DID: %v, want %s once", got, d)
	}
}
