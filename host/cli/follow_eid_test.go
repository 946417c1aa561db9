package cli

import (
	"math"
	"testing"

	eidclient "github.com/didlight/didlight/host/client/eid"
)

// An EID follower's upstream budget: as asked, or by default none for a
// node on this machine and the client's default for any other endpoint.
func TestFollowBudget(t *testing.T) {
	for _, tc := range []struct {
		name      string
		asked     float64
		endpoints []string
		want      float64
		wantErr   bool
	}{
		{"loopback, by default", 0, []string{"http://127.0.0.1:20636/"}, -1, false},
		{"localhost, by default", 0, []string{"http://localhost:20636/eid"}, -1, false},
		{"IPv6 loopback, by default", 0, []string{"http://[::1]:20636/"}, -1, false},
		{"a public endpoint, by default", 0, []string{"https://api.elastos.io/eid"}, eidclient.DefaultBudget, false},
		{"loopback and a public one, by default", 0, []string{"http://127.0.0.1:1/", "https://api.elastos.io/eid"}, eidclient.DefaultBudget, false},
		{"asked", 250, []string{"https://api.elastos.io/eid"}, 250, false},
		{"no limit asked", -1, []string{"https://api.elastos.io/eid"}, -1, false},
		{"negative", -2, []string{"http://127.0.0.1:1/"}, 0, true},
		{"NaN", math.NaN(), []string{"http://127.0.0.1:1/"}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := budgetFor(tc.asked, eidclient.Network{Endpoints: tc.endpoints})
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("budgetFor(%v, %v) = %v, %v; want %v (error %v)", tc.asked, tc.endpoints, got, err, tc.want, tc.wantErr)
			}
		})
	}
}
