package find

import "testing"

// BenchmarkMatch measures one document match per operation over a corpus
// of 2048 view documents built from the SDK vectors (compact JSON, 0.4 to
// 4.5 KB, credential array first), on raw JSON bytes, on their encoded
// form (as the store keeps them) and on parsed documents.
// docs/s is matches per second on one core (the loop runs on one
// goroutine); matched% is the share of documents the condition finds.
// The corpus stays in the processor's caches, unlike a store's views.
func BenchmarkMatch(b *testing.B) {
	raw, parsed := corpus(b, 2048)
	forms := make([][]byte, len(raw))
	for i, doc := range raw {
		forms[i] = mustEncode(b, doc)
	}
	conds := []struct{ name, cond string }{
		{"exists-credential-subject-email", `{"credential.subject.email": {$exists: true}}`},
		{"in-service-type", `{"service.type": {$in: ["HiveVault", "LinkedDomains"]}}`},
		{"spec-example-shape", `{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`},
		{"eq-id", `{id: "did:elastos:iCorpus000100XyZ"}`},
		{"gte-credential-subject-age", `{"credential.subject.age":{$gte:60}}`},
		{"lt-expires", `{"expires":{$lt:"2027-06-01T00:00:00Z"}}`},
	}
	for _, tc := range conds {
		c := mustCompile(b, tc.cond)
		b.Run(tc.name+"/raw", func(b *testing.B) {
			matched, i := 0, 0
			for b.Loop() {
				if c.Match(raw[i%len(raw)]) {
					matched++
				}
				i++
			}
			report(b, matched)
		})
		b.Run(tc.name+"/encoded", func(b *testing.B) {
			matched, i := 0, 0
			for b.Loop() {
				if c.MatchEncoded(forms[i%len(forms)]) {
					matched++
				}
				i++
			}
			report(b, matched)
		})
		b.Run(tc.name+"/parsed", func(b *testing.B) {
			matched, i := 0, 0
			for b.Loop() {
				if c.MatchValue(parsed[i%len(parsed)]) {
					matched++
				}
				i++
			}
			report(b, matched)
		})
	}
}

func report(b *testing.B, matched int) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(100*float64(matched)/float64(b.N), "matched%")
}

// BenchmarkParseJSON measures the one-time cost of the parsed form.
func BenchmarkParseJSON(b *testing.B) {
	raw, _ := corpus(b, 64)
	i := 0
	for b.Loop() {
		if _, err := ParseJSON(raw[i%len(raw)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCompile measures compiling the interface's example condition.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		mustCompile(b, `{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`)
	}
}

// BenchmarkEncode measures writing the encoded form of one view document
// per operation, which a store does for every view it keeps.
func BenchmarkEncode(b *testing.B) {
	raw, _ := corpus(b, 256)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := Encode(raw[i%len(raw)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkEncodedPostings measures the postings of one view document per
// operation, from its encoded form, under an index like a DID store's
// (the paths clients filter on, a credential subject's members), which a
// store computes for every view it indexes or replaces.
func BenchmarkEncodedPostings(b *testing.B) {
	raw, _ := corpus(b, 256)
	forms := make([][]byte, len(raw))
	for i, doc := range raw {
		var err error
		if forms[i], err = Encode(doc); err != nil {
			b.Fatal(err)
		}
	}
	ix := &Index{Paths: []string{"id", "controller", "service.type", "credential.type", "credential.issuer"}, Members: []string{"credential.subject"}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.EncodedPostings(forms[i%len(forms)])
		i++
	}
}
