package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/host/internal/nodetest"
)

// `didlight resolve --format w3c` prints the node's W3C answer, or with
// --verify the same answer built here (without block heights); DID URLs,
// --accept and the exit codes of the binding's statuses.
func TestResolveW3CCommand(t *testing.T) {
	n := nodetest.Start(t)
	t.Setenv("DIDLIGHT_REST", strings.TrimSuffix(n.REST, "/api/v1"))
	t.Setenv("DIDLIGHT_RPC", n.RPC)
	c := &cli{t: t, dir: t.TempDir()}

	subject, priv := publishTestDID(t, n, "cli w3c", did.NewService(did.URL{Fragment: "hive"}, "HiveVault", "https://hive.example.org/v"))
	d := subject.String()

	var node, local struct {
		DIDDocument         struct{ ID string }
		DIDDocumentMetadata struct{ Method map[string]any }
	}
	out := c.ok("resolve", "--format", "w3c", d)
	if err := json.Unmarshal([]byte(out), &node); err != nil || node.DIDDocument.ID != d || node.DIDDocumentMetadata.Method["height"] == nil {
		t.Errorf("the node's answer: %v\n%s", err, out)
	}
	if !strings.HasPrefix(out, "{\n  \"didDocument\": {") {
		t.Errorf("the answer is not printed in its own member order:\n%.80s", out)
	}
	verified := c.ok("resolve", "--format", "w3c", "--verify", strings.TrimPrefix(d, "did:elastos:"))
	if err := json.Unmarshal([]byte(verified), &local); err != nil || local.DIDDocument.ID != d || local.DIDDocumentMetadata.Method["height"] != nil ||
		local.DIDDocumentMetadata.Method["transactionCount"] != 1.0 {
		t.Errorf("the verified answer: %v\n%s", err, verified)
	}
	if got := c.ok("resolve", "--format", "w3c", "--accept", "application/did+json", d+"#primary"); !strings.Contains(got, `"publicKeyBase58": "`+priv.Public().Base58()+`"`) || strings.Contains(got, "@context") {
		t.Errorf("a key as application/did+json:\n%s", got)
	}
	for _, verify := range []string{"--verify=false", "--verify"} {
		if got := c.ok("resolve", "--format", "w3c", verify, d+"?service=hive&relativeRef=%2Fa"); got != "https://hive.example.org/v/a" {
			t.Errorf("%s: a service selection prints %q", verify, got)
		}
		c.fails(exitFail, "HTTP 404", "resolve", "--format", "w3c", verify, d+"#nope")
		c.fails(exitUsage, "HTTP 400", "resolve", "--format", "w3c", verify, d+"?versionId=zz")
		c.fails(exitFail, "HTTP 501", "resolve", "--format", "w3c", verify, "did:web:example.org")
	}
	c.fails(exitFail, "HTTP 404", "resolve", "--format", "w3c", "did:elastos:nosuchdid")
	c.fails(exitFail, "HTTP 406", "resolve", "--format", "w3c", "--accept", "text/html", d)
	c.fails(exitUsage, "--format \"xml\"", "resolve", "--format", "xml", d)
	c.fails(exitUsage, "--accept is for --format w3c", "resolve", "--accept", "application/did+json", d)
	c.fails(exitUsage, "exclude each other", "resolve", "--json", "--format", "w3c", d)
	if out := c.ok("resolve", "--format", "json", d); !strings.Contains(out, `"status": 0`) {
		t.Errorf("--format json: %s", out)
	}
	t.Setenv("DIDLIGHT_REST", closedPort(t))
	c.fails(exitUnreachable, "unreachable", "resolve", "--format", "w3c", d)
}
