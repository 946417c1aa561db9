package demo

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// person is one demo DID and what the demo does with it. The plan is a
// pure function of the dev seed, so every run of a node with the same seed
// wants the same DIDs.
type person struct {
	key         *keys.PrivateKey
	name        string
	services    []serviceSpec
	credentials []credentialSpec
	update      bool // publish a second version that adds a website
	deactivate  bool // deactivate it after its last version
	shortLived  bool // expires a few minutes after it is published
	declare     bool // declare its first credential on the chain
	revoke      bool // and revoke it
}

type serviceSpec struct{ fragment, typ, endpoint string }

type credentialSpec struct {
	fragment string
	types    []string // besides SelfProclaimedCredential
	subject  map[string]string
}

// ops returns the operations the plan publishes for p, in order.
func (p *person) ops() []string {
	ops := []string{idop.Create}
	if p.update {
		ops = append(ops, idop.Update)
	}
	if p.deactivate {
		ops = append(ops, idop.Deactivate)
	}
	return ops
}

var names = []string{
	"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan",
	"Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Quentin", "Rupert", "Sybil", "Trent",
	"Uma", "Victor", "Walter", "Xena", "Yusuf", "Zoe", "Amir", "Bea", "Chen",
	"Dara", "Emeka", "Fatima", "Goran", "Hana", "Ines", "Jun", "Kofi", "Lena",
}

// serviceTypes are the types the demo's services have, one per DID in turn.
var serviceTypes = []serviceSpec{
	{"hive", "HiveVault", "https://hive.example.org/%s"},
	{"messaging", "DIDCommMessaging", "https://msg.example.org/%s"},
	{"credentials", "CredentialRepositoryService", "https://vc.example.org/%s"},
	{"profile", "ProfilePage", "https://profiles.example.org/%s"},
}

// plan returns the demo people for seed: a few dozen DIDs, each with a
// service (several types; some have a LinkedDomains one too) and most with
// self-proclaimed credentials (profile, email, social); every fourth one
// is updated, four are deactivated and four expire minutes after seeding;
// nine declare a credential on the chain, and two of those revoke it.
func plan(seed string) ([]person, error) {
	people := make([]person, len(names))
	for i, name := range names {
		key, err := demoKey(seed, i)
		if err != nil {
			return nil, err
		}
		lower := strings.ToLower(name)
		st := serviceTypes[i%len(serviceTypes)]
		p := person{
			key:        key,
			name:       name,
			services:   []serviceSpec{{st.fragment, st.typ, fmt.Sprintf(st.endpoint, lower)}},
			update:     i%4 == 1,
			deactivate: i%9 == 8,
			shortLived: i%8 == 6,
		}
		if i%3 == 0 {
			p.services = append(p.services, serviceSpec{"domain", "LinkedDomains", "https://" + lower + ".example.org"})
		}
		if i%7 != 3 {
			p.credentials = append(p.credentials, credentialSpec{"profile", []string{"ProfileCredential"},
				map[string]string{"name": name, "email": lower + "@example.org"}})
		}
		if i%2 == 0 {
			p.credentials = append(p.credentials, credentialSpec{"email", []string{"EmailCredential"},
				map[string]string{"email": lower + "@mail.example.org"}})
		}
		if i%5 == 0 {
			p.credentials = append(p.credentials, credentialSpec{"social", []string{"SocialCredential"},
				map[string]string{"twitter": "@" + lower, "telegram": lower + "_did"}})
		}
		p.declare = i%3 == 0 && len(p.credentials) > 0 && !p.shortLived && !p.deactivate
		p.revoke = p.declare && i%18 == 9
		people[i] = p
	}
	return people, nil
}

// demoKey derives the key of demo DID i from the seed: SHA-256 of
// "didlight demo <i>:<seed>", hashed again while it is not a valid P-256
// scalar.
func demoKey(seed string, i int) (*keys.PrivateKey, error) {
	h := sha256.Sum256([]byte(fmt.Sprintf("didlight demo %d:%s", i, seed)))
	for range 16 {
		if k, err := keys.NewPrivateKey(h[:]); err == nil {
			return k, nil
		}
		h = sha256.Sum256(h[:])
	}
	return nil, fmt.Errorf("demo: no valid key for DID %d from seed %q", i, seed)
}
