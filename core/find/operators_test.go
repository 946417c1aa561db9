package find

import "testing"

// matchCase is one condition tested against one document.
type matchCase struct {
	cond, doc string
	want      bool
}

// checkMatches runs each case on the raw and the parsed document.
func checkMatches(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, tc := range cases {
		c, err := Compile(tc.cond)
		if err != nil {
			t.Errorf("Compile(%s): %v", tc.cond, err)
			continue
		}
		doc, err := ParseJSON([]byte(tc.doc))
		if err != nil {
			t.Fatalf("ParseJSON(%s): %v", tc.doc, err)
		}
		if got := c.Match([]byte(tc.doc)); got != tc.want {
			t.Errorf("%s on raw %s = %v, want %v", tc.cond, tc.doc, got, tc.want)
		}
		if got := c.MatchValue(&doc); got != tc.want {
			t.Errorf("%s on parsed %s = %v, want %v", tc.cond, tc.doc, got, tc.want)
		}
		if got := c.MatchEncoded(mustEncode(t, []byte(tc.doc))); got != tc.want {
			t.Errorf("%s on encoded %s = %v, want %v", tc.cond, tc.doc, got, tc.want)
		}
	}
}

// The cases below follow the store's documentation (pages cited in the
// package) and, for path traversal corner cases, its path iterator.

func TestEquality(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: 1}`, `{"a": 1}`, true},
		{`{a: 1}`, `{"a": 1.0}`, true},
		{`{a: 1}`, `{"a": "1"}`, false},
		{`{a: 1}`, `{"b": 1}`, false},
		{`{a: "x"}`, `{"a": "x"}`, true},
		{`{a: true}`, `{"a": 1}`, false},
		{`{a: {$eq: 1}}`, `{"a": 1}`, true},
		{`{a: "é\n"}`, `{"a": "\u00e9\n"}`, true},
		// An array field equals a value if an element or the whole array does.
		{`{tags: "red"}`, `{"tags": ["blank", "red"]}`, true},
		{`{tags: ["blank", "red"]}`, `{"tags": ["blank", "red"]}`, true},
		{`{tags: ["red", "blank"]}`, `{"tags": ["blank", "red"]}`, false},
		{`{tags: ["red"]}`, `{"tags": ["blank", "red"]}`, false},
		{`{tags: {$eq: ["blank", "red"]}}`, `{"tags": ["blank", "red"]}`, true},
		// Arrays of arrays: one level of elements only.
		{`{a: [1, 2]}`, `{"a": [[1, 2], [3]]}`, true},
		{`{a: 1}`, `{"a": [[1, 2], [3]]}`, false},
		{`{a: []}`, `{"a": []}`, true},
		{`{a: []}`, `{"a": [[]]}`, true},
		// Embedded documents: exact, member order included.
		{`{size: {h: 14, w: 21}}`, `{"size": {"h": 14, "w": 21}}`, true},
		{`{size: {w: 21, h: 14}}`, `{"size": {"h": 14, "w": 21}}`, false},
		{`{size: {h: 14}}`, `{"size": {"h": 14, "w": 21}}`, false},
		{`{size: {}}`, `{"size": {}}`, true},
		{`{"size.h": 14}`, `{"size": {"h": 14, "w": 21}}`, true},
		{`{a: {b: [1, {c: null}]}}`, `{"a": {"b": [1, {"c": null}]}}`, true},
		{`{a: {b: [1, {c: null}]}}`, `{"a": {"b": [1, {"c": false}]}}`, false},
		// Dotted paths descend through arrays of documents.
		{`{"a.b": 1}`, `{"a": [{"b": 2}, {"b": 1}]}`, true},
		{`{"a.b": 2}`, `{"a": [{"b": [1, 2]}]}`, true},
		{`{"a.b.c": 1}`, `{"a": [{"b": [{"c": 1}]}]}`, true},
		{`{"a.b": 1}`, `{"a": [[{"b": 1}]]}`, false},
		{`{"a.b": 1}`, `{"a": {"b": {"c": 1}}}`, false},
		// Names that spell positions.
		{`{"a.0": 5}`, `{"a": [5, 6]}`, true},
		{`{"a.1": 5}`, `{"a": [5, 6]}`, false},
		{`{"a.0": 5}`, `{"a": {"0": 5}}`, true},
		{`{"a.0.b": 1}`, `{"a": [{"b": 1}, {"b": 2}]}`, true},
		{`{"a.1.b": 1}`, `{"a": [{"b": 1}, {"b": 2}]}`, false},
		{`{"a.0": 1}`, `{"a": [{"0": 1}]}`, true},
		{`{"a.0": [1, 2]}`, `{"a": [[1, 2]]}`, true},
		{`{"a.0": 1}`, `{"a": [[1, 2]]}`, false},
		{`{"a.0.1": 2}`, `{"a": [[1, 2]]}`, true},
		{`{"a.01": 5}`, `{"a": [5, 6]}`, false},
		{`{"a.b.0": 7}`, `{"a": [{"b": [7]}]}`, true},
		// Odd field names are names, not path syntax.
		{`{"we*rd|#@": 1}`, `{"we*rd|#@": 1}`, true},
		{`{"": 1}`, `{"": 1}`, true},
		{`{"a\"b": 1}`, `{"a\"b": 1}`, true},
		{`{"a\\b": 1}`, `{"a\\b": 1}`, true},
		{`{"k\u00e9y": 1}`, `{"k\u00e9y": 1}`, true},
		{`{"a.b": 1}`, `{"a.b": 1}`, false},
	})
}

// https://www.mongodb.com/docs/manual/tutorial/query-for-null-fields/
func TestNullAndMissing(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: null}`, `{"a": null}`, true},
		{`{a: null}`, `{}`, true},
		{`{a: null}`, `{"a": 0}`, false},
		{`{a: null}`, `{"a": [1, null]}`, true},
		{`{a: null}`, `{"a": []}`, false},
		{`{"a.b": null}`, `{"a": [{"b": 1}, {"c": 1}]}`, true},
		{`{"a.b": null}`, `{"a": [{"b": 1}]}`, false},
		{`{"a.b": null}`, `{"a": [1, 2]}`, false},
		{`{"a.b": null}`, `{"a": 5}`, true},
		{`{"a.b": null}`, `{"a": {"b": null}}`, true},
		{`{a: {$ne: null}}`, `{}`, false},
		{`{a: {$ne: null}}`, `{"a": 1}`, true},
		{`{a: {$exists: true, $eq: null}}`, `{"a": null}`, true},
		{`{a: {$exists: true, $eq: null}}`, `{}`, false},
		{`{a: {$gte: null}}`, `{}`, true},
		{`{a: {$lte: null}}`, `{"a": null}`, true},
		{`{a: {$gt: null}}`, `{"a": null}`, false},
		{`{a: {$lt: null}}`, `{}`, false},
		{`{a: {$gt: null}}`, `{"a": 1}`, false},
		{`{a: {$in: [null]}}`, `{}`, true},
		{`{a: {$in: [null, 1]}}`, `{"a": 2}`, false},
		{`{a: {$nin: [null]}}`, `{}`, false},
		{`{a: {$type: "null"}}`, `{"a": null}`, true},
		{`{a: {$type: 10}}`, `{}`, false},
	})
}

func TestNe(t *testing.T) {
	// https://www.mongodb.com/docs/manual/reference/operator/query/ne/
	checkMatches(t, []matchCase{
		{`{a: {$ne: 1}}`, `{}`, true},
		{`{a: {$ne: 1}}`, `{"a": 1}`, false},
		{`{a: {$ne: 1}}`, `{"a": "1"}`, true},
		{`{a: {$ne: 1}}`, `{"a": [1, 2]}`, false},
		{`{a: {$ne: 1}}`, `{"a": [2, 3]}`, true},
		{`{a: {$ne: [1, 2]}}`, `{"a": [1, 2]}`, false},
		{`{"a.b": {$ne: 1}}`, `{"a": [{"b": 2}, {"b": 1}]}`, false},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query-comparison/
// https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/
func TestOrdering(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$gt: 1}}`, `{"a": 2}`, true},
		{`{a: {$gt: 1}}`, `{"a": 1}`, false},
		{`{a: {$gte: 1}}`, `{"a": 1}`, true},
		{`{a: {$lt: 1}}`, `{"a": -0.5}`, true},
		{`{a: {$lte: 1e3}}`, `{"a": 1000}`, true},
		// Type bracketing: other types never compare.
		{`{a: {$gt: 1}}`, `{"a": "2"}`, false},
		{`{a: {$lt: "a"}}`, `{"a": 1}`, false},
		{`{a: {$gt: 1}}`, `{"a": true}`, false},
		{`{a: {$gt: 1}}`, `{"a": {"b": 2}}`, false},
		{`{a: {$gt: 1}}`, `{}`, false},
		{`{a: {$lt: 1}}`, `{"a": null}`, false},
		// Strings compare byte by byte: upper case before lower case.
		{`{a: {$gt: "a"}}`, `{"a": "b"}`, true},
		{`{a: {$lt: "a"}}`, `{"a": "B"}`, true},
		{`{a: {$lt: "ab"}}`, `{"a": "a"}`, true},
		{`{a: {$gt: false}}`, `{"a": true}`, true},
		{`{a: {$lt: false}}`, `{"a": true}`, false},
		// Arrays: any element, or the whole array against an array operand.
		{`{a: {$gt: 1}}`, `{"a": [0, 5]}`, true},
		{`{a: {$gt: 5}}`, `{"a": [0, 5]}`, false},
		{`{a: {$gt: [1]}}`, `{"a": [1, 2]}`, true},
		{`{a: {$lt: [2]}}`, `{"a": [1, 5]}`, true},
		{`{a: {$gte: [1, 2]}}`, `{"a": [1, 2]}`, true},
		{`{a: {$gt: [1, 2]}}`, `{"a": [1, 2]}`, false},
		{`{a: {$lt: [1, "x"]}}`, `{"a": [1, 2]}`, true},
		// Embedded documents: member by member, kind then name then value.
		{`{a: {$gt: {x: 1}}}`, `{"a": {"x": 2}}`, true},
		{`{a: {$gt: {x: 1}}}`, `{"a": {"x": 1, "y": 1}}`, true},
		{`{a: {$gt: {x: 1}}}`, `{"a": {"w": 5}}`, false},
		{`{a: {$gt: {x: 1}}}`, `{"a": {"x": "s"}}`, true},
		{`{a: {$lt: {x: 1}}}`, `{"a": {}}`, true},
		// A range on an array field may be met by different elements.
		// https://www.mongodb.com/docs/manual/tutorial/query-arrays/#query-an-array-with-compound-filter-conditions-on-the-array-elements
		{`{a: {$gt: 15, $lt: 20}}`, `{"a": [10, 25]}`, true},
		{`{a: {$gt: 15, $lt: 20}}`, `{"a": 22}`, false},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/in/
// https://www.mongodb.com/docs/manual/reference/operator/query/nin/
func TestInNin(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$in: [1, "x"]}}`, `{"a": "x"}`, true},
		{`{a: {$in: [1, "x"]}}`, `{"a": ["y", 1]}`, true},
		{`{a: {$in: [1, "x"]}}`, `{"a": 2}`, false},
		{`{a: {$in: [1, "x"]}}`, `{}`, false},
		{`{a: {$in: []}}`, `{"a": 1}`, false},
		{`{a: {$in: [/^ac/i, "z"]}}`, `{"a": "ACME"}`, true},
		{`{a: {$in: [/^ac/]}}`, `{"a": 1}`, false},
		{`{a: {$in: [[1, 2]]}}`, `{"a": [1, 2]}`, true},
		{`{a: {$in: [[1, 2]]}}`, `{"a": [[1, 2], 3]}`, true},
		{`{a: {$in: [{b: 1}]}}`, `{"a": [{"b": 1}]}`, true},
		{`{a: {$nin: [1, 2]}}`, `{}`, true},
		{`{a: {$nin: [1, 2]}}`, `{"a": 3}`, true},
		{`{a: {$nin: [1, 2]}}`, `{"a": [3, 1]}`, false},
		{`{a: {$nin: []}}`, `{}`, true},
		{`{a: {$nin: [/^a/]}}`, `{"a": "abc"}`, false},
		{`{a: {$nin: [/^a/]}}`, `{"a": "b"}`, true},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/exists/
func TestExists(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$exists: true}}`, `{"a": null}`, true},
		{`{a: {$exists: true}}`, `{}`, false},
		{`{a: {$exists: true}}`, `{"a": []}`, true},
		{`{a: {$exists: false}}`, `{}`, true},
		{`{a: {$exists: false}}`, `{"a": null}`, false},
		{`{a: {$exists: 0}}`, `{}`, true},
		{`{a: {$exists: null}}`, `{}`, true},
		{`{a: {$exists: 1}}`, `{"a": 1}`, true},
		{`{a: {$exists: "yes"}}`, `{"a": 1}`, true},
		{`{"a.b": {$exists: true}}`, `{"a": [{"c": 1}, {"b": 1}]}`, true},
		{`{"a.b": {$exists: true}}`, `{"a": [1, 2]}`, false},
		{`{"a.b": {$exists: false}}`, `{"a": [{"c": 1}]}`, true},
		{`{"a.b": {$exists: false}}`, `{"a": {"b": 0}}`, false},
		{`{"a.1": {$exists: true}}`, `{"a": [0, 0]}`, true},
		{`{"a.2": {$exists: true}}`, `{"a": [0, 0]}`, false},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/type/
func TestType(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$type: "string"}}`, `{"a": "x"}`, true},
		{`{a: {$type: 2}}`, `{"a": "x"}`, true},
		{`{a: {$type: "string"}}`, `{"a": 1}`, false},
		{`{a: {$type: "number"}}`, `{"a": 1.5}`, true},
		{`{a: {$type: "double"}}`, `{"a": 1}`, true},
		{`{a: {$type: 1}}`, `{"a": 1}`, true},
		{`{a: {$type: 1.0}}`, `{"a": 1}`, true},
		{`{a: {$type: "int"}}`, `{"a": 1}`, false},
		{`{a: {$type: "long"}}`, `{"a": 1}`, false},
		{`{a: {$type: "decimal"}}`, `{"a": 1}`, false},
		{`{a: {$type: "date"}}`, `{"a": "2021-11-20T09:55:44Z"}`, false},
		{`{a: {$type: "objectId"}}`, `{"a": "5f1d7a1e9d1e8a1b2c3d4e5f"}`, false},
		{`{a: {$type: -1}}`, `{"a": 1}`, false},
		{`{a: {$type: "maxKey"}}`, `{"a": 1}`, false},
		// "array" matches the field itself; other types match elements.
		{`{a: {$type: "array"}}`, `{"a": []}`, true},
		{`{a: {$type: "array"}}`, `{"a": [1]}`, true},
		{`{a: {$type: "array"}}`, `{"a": 1}`, false},
		{`{a: {$type: 4}}`, `{"a": [[1]]}`, true},
		{`{a: {$type: "string"}}`, `{"a": [1, "x"]}`, true},
		{`{a: {$type: "number"}}`, `{"a": ["x"]}`, false},
		{`{a: {$type: ["string", "null"]}}`, `{"a": null}`, true},
		{`{a: {$type: ["string", 8]}}`, `{"a": false}`, true},
		{`{a: {$type: "object"}}`, `{"a": {}}`, true},
		{`{a: {$type: "bool"}}`, `{"a": true}`, true},
		{`{a: {$type: "null"}}`, `{}`, false},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/regex/
func TestRegex(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$regex: "^acme"}}`, `{"a": "acme corp"}`, true},
		{`{a: {$regex: "^acme"}}`, `{"a": "ACME corp"}`, false},
		{`{a: {$regex: "^acme", $options: "i"}}`, `{"a": "ACME corp"}`, true},
		{`{a: {$options: "i", $regex: "^acme"}}`, `{"a": "ACME corp"}`, true},
		{`{a: /^ACME/i}`, `{"a": "acme"}`, true},
		{`{a: /^ACME/}`, `{"a": "acme"}`, false},
		{`{a: {$regex: /^ACME/i}}`, `{"a": "acme"}`, true},
		{`{a: {$regex: /^ACME/, $options: "i"}}`, `{"a": "acme"}`, true},
		{`{a: {$regex: "corp"}}`, `{"a": "acme corp inc"}`, true},
		{`{a: {$regex: "^b", $options: "m"}}`, `{"a": "a\nb"}`, true},
		{`{a: {$regex: "^b"}}`, `{"a": "a\nb"}`, false},
		{`{a: {$regex: "a.b", $options: "s"}}`, `{"a": "a\nb"}`, true},
		{`{a: {$regex: "a.b"}}`, `{"a": "a\nb"}`, false},
		{`{a: {$regex: "a b # a comment\n c", $options: "x"}}`, `{"a": "abc"}`, true},
		{`{a: {$regex: "a[ ]b", $options: "x"}}`, `{"a": "a b"}`, true},
		{`{a: {$regex: "a\\ b", $options: "x"}}`, `{"a": "a b"}`, true},
		{`{a: {$regex: "é", $options: "u"}}`, `{"a": "café"}`, true},
		{`{a: /1/}`, `{"a": 1}`, false},
		{`{a: /^b/}`, `{"a": ["a", "bc"]}`, true},
		{`{a: /^b/}`, `{}`, false},
		{`{a: /a\/b/}`, `{"a": "a/b"}`, true},
		{`{a: /[/]/}`, `{"a": "/"}`, true},
		// A regex operand of $eq is a value to equal; JSON holds none.
		{`{a: {$eq: /a/}}`, `{"a": "a"}`, false},
		{`{a: {$regex: "b", $nin: ["abc"]}}`, `{"a": "abc"}`, false},
		{`{a: {$regex: "b", $nin: ["abc"]}}`, `{"a": "bcd"}`, true},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/not/
func TestNot(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$not: {$gt: 5}}}`, `{}`, true},
		{`{a: {$not: {$gt: 5}}}`, `{"a": 6}`, false},
		{`{a: {$not: {$gt: 5}}}`, `{"a": 3}`, true},
		{`{a: {$not: {$gt: 5}}}`, `{"a": "x"}`, true},
		{`{a: {$not: {$gt: 5}}}`, `{"a": [1, 9]}`, false},
		{`{a: {$not: /^a/}}`, `{"a": "abc"}`, false},
		{`{a: {$not: /^a/}}`, `{"a": "b"}`, true},
		{`{a: {$not: /^a/}}`, `{}`, true},
		{`{a: {$not: /^a/}}`, `{"a": 1}`, true},
		{`{a: {$not: {$regex: "^a", $options: "i"}}}`, `{"a": "ABC"}`, false},
		{`{a: {$not: {$gt: 1, $lt: 5}}}`, `{"a": [0, 6]}`, false},
		{`{a: {$not: {$gt: 1, $lt: 5}}}`, `{"a": 10}`, true},
		{`{a: {$not: {$not: {$eq: 1}}}}`, `{"a": 1}`, true},
		{`{a: {$not: {$size: 2}}}`, `{"a": [1]}`, true},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/size/
func TestSize(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$size: 2}}`, `{"a": [1, 2]}`, true},
		{`{a: {$size: 2}}`, `{"a": [1]}`, false},
		{`{a: {$size: 2}}`, `{"a": 2}`, false},
		{`{a: {$size: 0}}`, `{"a": []}`, true},
		{`{a: {$size: 0}}`, `{}`, false},
		{`{a: {$size: 1}}`, `{"a": [[1, 2]]}`, true},
		{`{a: {$size: 2}}`, `{"a": [[1, 2]]}`, false},
		{`{"a.b": {$size: 2}}`, `{"a": [{"b": [1]}, {"b": [1, 2]}]}`, true},
		{`{"a.b": {$size: 2}}`, `{"a": [{"b": [1]}, {"b": 2}]}`, false},
		{`{a: {$size: 2.0}}`, `{"a": [{}, {}]}`, true},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/all/
func TestAll(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{tags: {$all: ["ssl", "security"]}}`, `{"tags": ["ssl", "x", "security"]}`, true},
		{`{tags: {$all: ["ssl", "security"]}}`, `{"tags": ["ssl"]}`, false},
		{`{tags: {$all: ["ssl"]}}`, `{"tags": "ssl"}`, true},
		{`{tags: {$all: [["ssl", "security"]]}}`, `{"tags": ["ssl", "security"]}`, true},
		{`{tags: {$all: [["ssl", "security"]]}}`, `{"tags": [["ssl", "security"], "x"]}`, true},
		{`{tags: {$all: [["ssl", "security"]]}}`, `{"tags": ["security", "ssl"]}`, false},
		{`{tags: {$all: []}}`, `{"tags": []}`, false},
		{`{a: {$all: [/^x/, /y$/]}}`, `{"a": ["xa", "by"]}`, true},
		{`{a: {$all: [/^x/, /y$/]}}`, `{"a": ["xa"]}`, false},
		{`{qty: {$all: [{$elemMatch: {size: "M", num: {$gt: 50}}}, {$elemMatch: {num: 100, color: "green"}}]}}`,
			`{"qty": [{"size": "S", "num": 100, "color": "green"}, {"size": "M", "num": 100, "color": "blue"}]}`, true},
		{`{qty: {$all: [{$elemMatch: {size: "M", num: {$gt: 50}}}, {$elemMatch: {num: 100, color: "green"}}]}}`,
			`{"qty": [{"size": "M", "num": 100, "color": "blue"}]}`, false},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/elemMatch/
func TestElemMatch(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{results: {$elemMatch: {$gte: 80, $lt: 85}}}`, `{"results": [82, 85, 88]}`, true},
		{`{results: {$elemMatch: {$gte: 80, $lt: 85}}}`, `{"results": [75, 88]}`, false},
		{`{results: {$elemMatch: {product: "xyz", score: {$gte: 8}}}}`, `{"results": [{"product": "abc", "score": 10}, {"product": "xyz", "score": 5}]}`, false},
		{`{results: {$elemMatch: {product: "xyz", score: {$gte: 8}}}}`, `{"results": [{"product": "abc", "score": 10}, {"product": "xyz", "score": 8}]}`, true},
		{`{"results.product": "xyz", "results.score": {$gte: 8}}`, `{"results": [{"product": "abc", "score": 10}, {"product": "xyz", "score": 5}]}`, true},
		{`{a: {$elemMatch: {$or: [{b: 1}, {c: 1}]}}}`, `{"a": [{"c": 1}]}`, true},
		{`{a: {$elemMatch: {$gt: 1}}}`, `{"a": 5}`, false},
		{`{a: {$elemMatch: {$gt: 1}}}`, `{"a": [[5]]}`, false},
		{`{a: {$elemMatch: {"0": 1}}}`, `{"a": [[1, 2]]}`, true},
		{`{a: {$elemMatch: {$ne: 1}}}`, `{"a": [1, 1]}`, false},
		{`{a: {$elemMatch: {$ne: 1}}}`, `{"a": [1, 2]}`, true},
		{`{a: {$elemMatch: {$size: 1}}}`, `{"a": [[7]]}`, true},
		{`{a: {$elemMatch: {$exists: false}}}`, `{"a": [1]}`, false},
		{`{a: {$elemMatch: {}}}`, `{"a": [{}]}`, true},
		{`{a: {$elemMatch: {}}}`, `{"a": [1]}`, false},
		{`{"a.b": {$elemMatch: {c: 1}}}`, `{"a": [{"b": [{"c": 1}]}]}`, true},
		{`{a: {$elemMatch: {b: {$elemMatch: {$gt: 2}}}}}`, `{"a": [{"b": [1, 3]}]}`, true},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query/mod/
func TestMod(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{a: {$mod: [4, 0]}}`, `{"a": 8}`, true},
		{`{a: {$mod: [4, 0]}}`, `{"a": 9}`, false},
		{`{a: {$mod: [4, 0]}}`, `{"a": 8.9}`, true},
		{`{a: {$mod: [4, 0]}}`, `{"a": -8}`, true},
		{`{a: {$mod: [4, -1]}}`, `{"a": -9}`, true},
		{`{a: {$mod: [4.5, 1]}}`, `{"a": 9}`, true},
		{`{a: {$mod: [4, 0]}}`, `{"a": "8"}`, false},
		{`{a: {$mod: [4, 1]}}`, `{"a": [2, 5]}`, true},
	})
}

// https://www.mongodb.com/docs/manual/reference/operator/query-logical/
func TestLogical(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{}`, `{"a": 1}`, true},
		{`{$or: [{a: 1}, {b: 2}]}`, `{"b": 2}`, true},
		{`{$or: [{a: 1}, {b: 2}]}`, `{"c": 1}`, false},
		{`{$and: [{a: {$gt: 1}}, {a: {$lt: 5}}]}`, `{"a": 3}`, true},
		{`{$and: [{a: {$gt: 1}}, {a: {$lt: 5}}]}`, `{"a": 7}`, false},
		{`{$nor: [{a: 1}, {b: 2}]}`, `{}`, true},
		{`{$nor: [{a: 1}, {b: 2}]}`, `{"a": 1}`, false},
		{`{$comment: "who has a vault", a: 1}`, `{"a": 1}`, true},
		{`{a: 1, $or: [{b: 1}, {c: {$exists: true}}]}`, `{"a": 1, "c": null}`, true},
		{`{a: 1, $or: [{b: 1}, {c: {$exists: true}}]}`, `{"a": 2, "c": null}`, false},
		{`{a: 1, a: 2}`, `{"a": [1, 2]}`, true},
		{`{a: {$gt: 1, $gt: 3}}`, `{"a": 2}`, false},
	})
}

// Raw documents with escapes match as the parsed ones do: the byte
// prefilter stands aside for them.
func TestEscapedDocuments(t *testing.T) {
	checkMatches(t, []matchCase{
		{`{email: {$exists: true}}`, `{"\u0065mail": 1}`, true},
		{`{email: {$exists: true}}`, `{"emai\u006c": 1}`, true},
		{`{a: "HiveVault"}`, `{"a": "Hive\u0056ault"}`, true},
		{`{a: {$in: ["x\"y", "z"]}}`, `{"a": "x\"y"}`, true},
		{`{a: "x\"y"}`, `{"a": "x\"y"}`, true},
		{`{"a\"b": {$exists: true}}`, `{"a\"b": 0}`, true},
		{`{a: "HiveVault"}`, `{"a": "HiveVault2", "b": "\n"}`, false},
		{`{a: "HiveVault"}`, `{"b": "HiveVault", "a": 1}`, false},
	})
}
