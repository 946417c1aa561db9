package find

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrefilterLiterals(t *testing.T) {
	tests := []struct {
		cond string
		want [][]string
	}{
		{`{"credential.subject.email": {$exists: true}}`, [][]string{{`"email"`}}},
		{`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`, [][]string{{`"SelfProclaimedCredential"`}}},
		{`{"service.type": {$in: ["HiveVault", "LinkedDomains"]}}`, [][]string{{`"HiveVault"`, `"LinkedDomains"`}}},
		{`{a: 'x"y', "b.0": 1}`, [][]string{{`"x\"y"`}}},
		{`{"a.0": 1, c: {$size: 1}}`, [][]string{{`"a"`}, {`"c"`}}},
		{`{a: {$in: ["x", 1]}}`, [][]string{{`"a"`}}},
		{`{a: {$in: ["x", /y/]}}`, [][]string{{`"a"`}}},
		// Conditions a document without the field can meet give nothing.
		{`{a: null}`, nil},
		{`{a: {$in: ["x", null]}}`, nil},
		{`{a: {$ne: "x"}}`, nil},
		{`{a: {$exists: false}}`, nil},
		{`{$or: [{a: "x"}, {b: "y"}]}`, nil},
		{`{"0.1": {$exists: true}}`, nil},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var got [][]string
			for _, group := range mustCompile(t, tc.cond).filter {
				var texts []string
				for _, l := range group {
					texts = append(texts, l.text)
				}
				got = append(got, texts)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("prefilter of %s (-want +got):\n%s", tc.cond, diff)
			}
		})
	}
}

func TestPrefilterAdmits(t *testing.T) {
	p := prefilter{{newLiteral("HiveVault"), newLiteral("Linked")}, {newLiteral("type")}}
	tests := []struct {
		text string
		want bool
	}{
		{`{"type":"HiveVault"}`, true},
		{`{"type":["x","Linked"]}`, true},
		{`{"type":"HiveVaults"}`, false},
		{`{"kind":"HiveVault"}`, false},
		{`{"HiveVault":"type"}`, true},
		{`{"typ":"HiveVault","e":"\n"}`, true}, // a backslash: the prefilter stands aside
		{`"HiveVault"`, false},
		{``, false},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := p.admits(tc.text); got != tc.want {
				t.Errorf("admits(%s) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
	if !(prefilter{}).admits(`{}`) {
		t.Error("an empty prefilter rejects a document")
	}
}
