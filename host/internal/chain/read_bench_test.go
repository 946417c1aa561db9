package chain

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/cputime"
)

// BenchmarkResolveDID resolves DIDs with five operations each (a create
// and four updates), 64 distinct ones in turn, their latest transaction and
// their whole history, and reports resolves per second (wall time, one
// goroutine) and cpu-ns/op, the process CPU time per resolve, which load
// from other processes does not inflate. "latest" and "all" answer from
// the answers kept for the tip, as a node resolving the same DIDs again
// does; the -built ones empty them first, so that each answer is read from
// the store and built.
func BenchmarkResolveDID(b *testing.B) {
	f := newFixture(b, Config{})
	users := make([]*user, 64)
	for i := range users {
		u := newUser(fmt.Sprint("resolve ", i))
		u.last = f.publish(u.create(b, u.document(b, GenesisTime.AddDate(2, 0, 0), []did.Service{service("hub", "Hub")})))
		for j := range 4 {
			u.last = f.publish(u.update(b, u.document(b, GenesisTime.AddDate(2, 0, j+1), []did.Service{service("hub", "Hub")}, "EmailCredential")))
		}
		users[i] = u
	}
	dids := make([]did.DID, len(users))
	for i, u := range users {
		dids[i] = u.did()
	}
	for _, bench := range []struct {
		name       string
		all, built bool
	}{{"latest", false, false}, {"all", true, false}, {"latest-built", false, true}, {"all-built", true, true}} {
		all := bench.all
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			i, start, cpu := 0, time.Now(), cputime.Now()
			for b.Loop() {
				if bench.built {
					f.c.cache.Forget()
				}
				if _, err := f.c.ResolveDID(context.Background(), dids[i%len(dids)], all); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "resolves/s")
			b.ReportMetric(float64((cputime.Now()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkQuery asks for pages of 10 documents among 200 DIDs that each
// hold a service and two credentials, by the condition loadbench's query
// kind sends ({"credential.type":{"$exists":true}}), skip moving by 10 a
// page, and reports pages per second (wall time, one goroutine) and
// cpu-ns/op, the process CPU time per page. "kept" answers from the pages
// kept for the tip, as a node asked the same page again does; "built"
// empties them first, so that each page is found, read and written anew.
func BenchmarkQuery(b *testing.B) {
	const n, limit = 200, 10
	f := newFixture(b, Config{})
	f.split(f.dev(), 4)
	for i := range n {
		u := newUser(fmt.Sprint("query ", i))
		f.submit(f.opTx(f.dev(), u.create(b, u.document(b, GenesisTime.AddDate(2, 0, 0), []did.Service{service("hub", "Hub")}, "EmailCredential", "ProfileCredential"))))
		if i%4 == 3 {
			f.mine()
		}
	}
	cond, err := find.Compile(`{"credential.type":{"$exists":true}}`)
	if err != nil {
		b.Fatal(err)
	}
	for _, bench := range []struct {
		name  string
		built bool
	}{{"kept", false}, {"built", true}} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			i, start, cpu := 0, time.Now(), cputime.Now()
			for b.Loop() {
				if bench.built {
					f.c.cache.Forget()
				}
				q := Query{Condition: cond, Skip: i % (n / limit) * limit, Limit: limit}
				if _, err := f.c.Query(context.Background(), q); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pages/s")
			b.ReportMetric(float64((cputime.Now()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
