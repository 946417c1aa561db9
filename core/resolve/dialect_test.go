package resolve

import (
	"errors"
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

func TestDialectStatus(t *testing.T) {
	for i, tc := range []struct {
		dl        Dialect
		in, wants Status
	}{
		{DialectSpec, Valid, Valid},
		{DialectSpec, Expired, Expired},
		{DialectSpec, Deactivated, Deactivated},
		{DialectSpec, NotFound, NotFound},
		{DialectEID, Valid, Valid},
		{DialectEID, Expired, Valid},
		{DialectEID, Deactivated, Deactivated},
		{DialectEID, NotFound, NotFound},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := tc.dl.Status(tc.in); got != tc.wants {
				t.Errorf("dialect %d: %v reads as %v, want %v", tc.dl, tc.in, got, tc.wants)
			}
		})
	}
}

// An expired document is status 1 for resolvedid and 0 for did_resolveDID;
// each dialect verifies its own answer and refuses the other's.
func TestDialectExpired(t *testing.T) {
	c := newChain(t, 1, false)
	later := t0.AddDate(3, 0, 0)
	for i, tc := range []struct {
		dl    Dialect
		other Dialect
		want  Status
		rule  idop.Rule // the other dialect's refusal
	}{
		{DialectSpec, DialectEID, Expired, idop.RuleMalformed}, // EID never says 1
		{DialectEID, DialectSpec, Valid, RuleStatus},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			b, err := tc.dl.Result(c.subject, c.entries, true, later.Unix())
			if err != nil {
				t.Fatal(err)
			}
			if got := decode(t, b); got.Status != int(tc.want) || len(got.Transaction) != 2 {
				t.Errorf("dialect %d: %s", tc.dl, b)
			}
			if v, err := tc.dl.Verify(b, nil, keys.Native{}, later); err != nil || v.Status != tc.want {
				t.Errorf("dialect %d verifies its result: %+v, %v", tc.dl, v, err)
			}
			var ve *VerifyError
			if _, err := tc.other.Verify(b, nil, keys.Native{}, later); !errors.As(err, &ve) || ve.Rule != tc.rule {
				t.Errorf("dialect %d verifies dialect %d's result: %v, want rule %s", tc.other, tc.dl, err, tc.rule)
			}
		})
	}
	// Before expiry the dialects agree, and with Result and Verify.
	spec, _ := Result(c.subject, c.entries, false, t0.Unix())
	eid, _ := DialectEID.Result(c.subject, c.entries, false, t0.Unix())
	if string(spec) != string(eid) {
		t.Errorf("valid DID: the dialects differ:\n%s\n%s", spec, eid)
	}
	gone := newChain(t, 0, true)
	spec, _ = Result(gone.subject, gone.entries, false, t0.AddDate(5, 0, 0).Unix())
	if _, err := DialectEID.Verify(spec, nil, keys.Native{}, t0.AddDate(5, 0, 0)); err != nil {
		t.Errorf("deactivated DID, EID dialect: %v", err)
	}
}

// EID echoes the did of a DID it does not know as the request gave it,
// which may be the bare id; every other result names its DID in full form.
func TestDialectDIDAsGiven(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result string
		dl     Dialect
		ok     bool
	}{
		{"EID, not found, bare", `{"did":"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":3}`, DialectEID, true},
		{"EID, not found, full", `{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":3}`, DialectEID, true},
		{"spec, not found, bare", `{"did":"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":3}`, DialectSpec, false},
		{"EID, valid, bare", `{"did":"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":0,"transaction":[]}`, DialectEID, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.dl.Verify([]byte(tc.result), nil, keys.Native{}, t0)
			if (err == nil) != tc.ok {
				t.Fatalf("error %v, want ok %v", err, tc.ok)
			}
			if err == nil && v.DID.ID() != "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y" {
				t.Errorf("DID %s", v.DID)
			}
		})
	}
}
