package find_test

import (
	"fmt"

	"github.com/didlight/didlight/core/find"
)

// A view of a DID document: the document plus its credentials.
const view = `{"id":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y",
 "service":[{"id":"#vault","type":"HiveVault","serviceEndpoint":"https://hive.example.com"}],
 "credential":[{"id":"#profile","type":["VerifiableCredential","SelfProclaimedCredential"],
   "subject":{"name":"John","email":"john@example.com"}}]}`

// The interface's own example, in the relaxed syntax people paste.
func ExampleCompile() {
	c, err := find.Compile(`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Match([]byte(view)))
	fmt.Println(c.Match([]byte(`{"id":"did:elastos:other","credential":[]}`)))
	fmt.Println(c)
	// Output:
	// true
	// false
	// {"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{"$exists":true}}}}
}

// Errors say where the text stops making sense, or which operator is at
// fault on which path.
func ExampleCompile_errors() {
	for _, text := range []string{
		`{credential.type: 'X'`,
		`{"service.type": {$where: "this.type == 'X'"}}`,
		`{"credential.type": {$type: "text"}}`,
	} {
		_, err := find.Compile(text)
		fmt.Println(err)
	}
	// Output:
	// find: syntax error at byte 21: expected ',' or '}', found end of input
	// find: unsupported operator $where on path "service.type": runs JavaScript, which a find condition here cannot
	// find: invalid argument $type on path "credential.type": unknown type "text"; use a BSON type alias such as "string" or "number", or its number
}

// A document parsed once matches many conditions without reading JSON again.
func ExampleCondition_MatchValue() {
	doc, err := find.ParseJSON([]byte(view))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, text := range []string{
		`{"service.type": {$in: ["HiveVault", "CarrierAddress"]}}`,
		`{"credential.subject.name": /^jo/i}`,
		`{"credential.type": {$size: 2}}`,
		`{"controller": {$exists: true}}`,
	} {
		c, err := find.Compile(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(text, c.MatchValue(&doc))
	}
	// Output:
	// {"service.type": {$in: ["HiveVault", "CarrierAddress"]}} true
	// {"credential.subject.name": /^jo/i} true
	// {"credential.type": {$size: 2}} true
	// {"controller": {$exists: true}} false
}

// A Plan tells a store which postings of an Index find the documents a
// condition matches, and whether they find exactly those.
func ExampleCondition_Plan() {
	ix := &find.Index{Paths: []string{"service.type", "credential.type"}, Members: []string{"credential.subject"}}
	for _, text := range []string{
		`{"service.type": {$in: ["HiveVault", "CarrierAddress"]}}`,
		`{credential: {type: ["SelfProclaimedCredential"], subject: {email: {$exists: true}}}}`,
		`{"credential.subject.age": {$gte: 18}}`,
		`{expires: {$lt: "2027"}}`,
	} {
		c, err := find.Compile(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(c.Plan(ix))
	}
	// Output:
	// service.type in ["HiveVault","CarrierAddress"] exact
	// and(credential.type in ["SelfProclaimedCredential"], present(credential.subject.email))
	// present(credential.subject.age)
	// scan
}
