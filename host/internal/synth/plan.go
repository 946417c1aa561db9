package synth

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/keys"
)

// Shape constants of every generated chain.
const (
	// WaveSize is how many DIDs are created in one block; their later
	// operations follow in the next blocks, one per block.
	WaveSize = 500
	// Issuers is how many of the first DIDs are issuers: standard DIDs,
	// never deactivated, long-lived, that issue credentials to later DIDs
	// and control the customized ones.
	Issuers = 64
	// MaxUpdates, MaxServices and MaxCredentials bound a DID's mix.
	MaxUpdates     = 5
	MaxServices    = 5
	MaxCredentials = 8
	// MinShortLife is the shortest lifetime of a short-lived document: long
	// enough for all its DID's operations, one block interval apart.
	MinShortLife = 12 * time.Hour
)

// Plan is a generated chain of DIDs from a seed. Its methods are safe for
// concurrent use.
type Plan struct {
	Seed     string
	DIDs     int
	Start    time.Time     // the time of the first block of the plan
	Interval time.Duration // between two blocks
	issuers  []*keys.PrivateKey
}

// NewPlan returns the plan of n DIDs for seed, whose first block is
// stamped start and each later one interval after the one before.
func NewPlan(seed string, n int, start time.Time, interval time.Duration) (*Plan, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("synth: %d DIDs, want at least 1", n)
	case interval < time.Second || interval%time.Second != 0:
		return nil, fmt.Errorf("synth: block interval %s, want whole seconds, at least one", interval)
	case interval*MaxOps >= MinShortLife:
		return nil, fmt.Errorf("synth: block interval %s: a DID's %d operations would outlive its shortest lifetime %s", interval, MaxOps, MinShortLife)
	}
	p := &Plan{Seed: seed, DIDs: n, Start: start.UTC().Truncate(time.Second), Interval: interval}
	for i := range min(n, Issuers) {
		p.issuers = append(p.issuers, Key(seed, i))
	}
	return p, nil
}

// DID is what the plan makes of one DID.
type DID struct {
	Index       int
	Name        string // a customized DID's name; "" for a standard DID
	Controller  int    // the issuer controlling a customized DID; -1 for a standard one
	Services    []Service
	Credentials []Credential
	Updates     int           // 0 to MaxUpdates
	Lifetime    time.Duration // each document expires this long after its block
	Declare     bool          // declare the first credential on the chain
	Revoke      bool          // and revoke it
	Deactivate  bool          // deactivate the DID after everything else
}

// Service is a service of a generated document.
type Service struct{ Fragment, Type, Endpoint string }

// Credential is an embedded credential of a generated document.
type Credential struct {
	Fragment string
	Types    []string
	Issuer   int             // the index of the issuing DID; -1 for self-proclaimed
	Subject  json.RawMessage // the claims: a JSON object
}

// Key returns the key of DID i for seed: SHA-256 of "didlight synth
// <i>:<seed>", hashed again while it is not a valid P-256 scalar.
func Key(seed string, i int) *keys.PrivateKey {
	h := sha256.Sum256(fmt.Appendf(nil, "didlight synth %d:%s", i, seed))
	for {
		if k, err := keys.NewPrivateKey(h[:]); err == nil {
			return k
		}
		h = sha256.Sum256(h[:])
	}
}

// rng returns the random source of one stream of DID i's decisions.
func (p *Plan) rng(stream string, i int) *rand.Rand {
	h := sha256.Sum256(fmt.Appendf(nil, "didlight synth %s %d:%s", stream, i, p.Seed))
	return rand.New(rand.NewPCG(binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:16])))
}

// weighted returns an index of weights drawn in proportion to them.
func weighted(r *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

// skewed returns an index of n drawn with a long tail: low indexes are
// far more common, as a few service and credential types dominate.
func skewed(r *rand.Rand, n int) int {
	x := r.Float64()
	return int(x * x * float64(n))
}

// Weights of the mix: how many DIDs (in percent) have 0, 1, ... services,
// credentials and updates.
var (
	serviceWeights    = []int{30, 35, 15, 10, 6, 4}
	credentialWeights = []int{25, 20, 15, 12, 10, 7, 5, 4, 2}
	updateWeights     = []int{70, 12, 8, 5, 3, 2}
)

// DID returns the plan of DID i (0 <= i < p.DIDs): its shape (Shape)
// and the services and credentials its documents hold.
func (p *Plan) DID(i int) DID {
	d, credentials := p.shape(i)
	r := p.rng("content", i)
	d.Services = services(r, d)
	d.Credentials = issued(r, d, credentials)
	return d
}

// Shape returns the plan of DID i without its services and credentials:
// what decides its operations (Ops), cheaply.
func (p *Plan) Shape(i int) DID {
	d, _ := p.shape(i)
	return d
}

// shape draws DID i's kind, lifetime and operations, and how many
// credentials it has, from a stream of its own, so that scheduling draws
// nothing else.
func (p *Plan) shape(i int) (DID, int) {
	r := p.rng("shape", i)
	d := DID{Index: i, Controller: -1}
	issuer := i < Issuers
	// Customized DIDs need an issuer to control them, created a block earlier.
	if !issuer && i >= WaveSize && r.IntN(100) < 5 {
		d.Name = words[r.IntN(len(words))] + strconv.Itoa(i)
		d.Controller = r.IntN(Issuers)
	}
	credentials := weighted(r, credentialWeights)
	d.Updates = weighted(r, updateWeights)
	d.Lifetime = time.Duration(365+r.IntN(4*365)) * 24 * time.Hour
	if !issuer && r.IntN(100) < 10 {
		d.Lifetime = MinShortLife + time.Duration(r.IntN(60*24))*time.Hour
	}
	d.Declare = d.Name == "" && credentials > 0 && r.IntN(100) < 10
	d.Revoke = d.Declare && r.IntN(100) < 30
	d.Deactivate = !issuer && r.IntN(100) < 5
	return d, credentials
}

func services(r *rand.Rand, d DID) []Service {
	n := weighted(r, serviceWeights)
	out := make([]Service, 0, n)
	used := map[string]bool{}
	for len(out) < n {
		typ := serviceTypes[skewed(r, len(serviceTypes))]
		frag := strings.ToLower(typ)
		if used[frag] {
			continue
		}
		used[frag] = true
		out = append(out, Service{frag, typ, fmt.Sprintf("https://%s.example.org/%d", frag, d.Index)})
	}
	return out
}

func issued(r *rand.Rand, d DID, n int) []Credential {
	out := make([]Credential, 0, n)
	used := map[string]bool{}
	for len(out) < n {
		typ := credentialTypes[skewed(r, len(credentialTypes))]
		frag := strings.ToLower(strings.TrimSuffix(typ, "Credential"))
		if used[frag] {
			continue
		}
		used[frag] = true
		c := Credential{Fragment: frag, Issuer: -1, Types: []string{typ}}
		// Issued credentials need their issuer created a block earlier;
		// a customized DID has no key of its own to proclaim anything.
		if d.Index >= WaveSize && (d.Name != "" || r.IntN(100) < 40) {
			c.Issuer = r.IntN(Issuers)
		} else {
			c.Types = append(c.Types, "SelfProclaimedCredential")
		}
		c.Subject = subject(r, typ)
		out = append(out, c)
	}
	return out
}

// subject returns the claims of a credential of type typ: a few members
// of every JSON kind.
func subject(r *rand.Rand, typ string) json.RawMessage {
	given, family := givenNames[r.IntN(len(givenNames))], familyNames[r.IntN(len(familyNames))]
	claims := map[string]any{"name": given + " " + family}
	if r.IntN(2) == 0 {
		claims["country"] = countries[skewed(r, len(countries))]
	}
	if r.IntN(3) == 0 {
		claims["email"] = strings.ToLower(given) + "." + strconv.Itoa(r.IntN(10000)) + "@example.org"
	}
	if r.IntN(3) == 0 {
		claims["age"] = 18 + r.IntN(60)
	}
	if r.IntN(4) == 0 {
		claims["verified"] = r.IntN(2) == 0
	}
	if r.IntN(4) == 0 {
		claims["address"] = map[string]any{"city": cities[r.IntN(len(cities))], "country": countries[r.IntN(len(countries))], "zip": strconv.Itoa(10000 + r.IntN(90000))}
	}
	if r.IntN(4) == 0 {
		k := 1 + r.IntN(3)
		langs := make([]string, k)
		for j := range langs {
			langs[j] = languages[r.IntN(len(languages))]
		}
		claims["languages"] = langs
	}
	if r.IntN(5) == 0 {
		claims["score"] = float64(r.IntN(10000)) / 100
	}
	claims["type"] = strings.TrimSuffix(typ, "Credential")
	b, err := json.Marshal(claims)
	if err != nil {
		panic("synth: claims of plain values do not encode: " + err.Error()) // cannot happen
	}
	return b
}
