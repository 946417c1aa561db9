// Package find evaluates document-store (MongoDB) find conditions over JSON
// documents: the `query` method's matcher. A condition is compiled once
// with Compile and then matched against many documents, either as raw JSON
// text read in place by a small scanner (Condition.Match) or as a document parsed
// once with ParseJSON (Condition.MatchValue); both give the same answers.
//
// # Syntax
//
// Compile reads strict JSON and the relaxed form people paste from the
// shell and from the interface's own example: unquoted keys (identifiers,
// $-operators and dotted paths: {$exists:true}, {credential.type:'X'}),
// single-quoted strings, and /pattern/flags regular expression literals.
// Strict JSON reads the same either way. Errors are a *SyntaxError (what
// was expected at which byte offset) or a *ConditionError (which rule,
// operator and field path).
//
// # Values
//
// JSON has a subset of the store's BSON types: double (every JSON number
// is a float64, so integers beyond 2^53 compare as their nearest doubles),
// string, object, array, bool and null. $type accepts every
// BSON type alias and number; "number" and 1/"double" match JSON numbers,
// and the aliases of types JSON cannot hold ("date", "objectId", "int",
// "long", "decimal"...) are valid and match nothing. An unknown alias is an
// error. Numbers compare by value, strings byte by byte, and values of
// different types never satisfy $gt/$gte/$lt/$lte ("type bracketing").
//
// # Semantics
//
// Conditions mean what they mean in the store
// (https://www.mongodb.com/docs/manual/tutorial/query-documents/): members
// are ANDed; dotted paths descend through arrays and hold if any element
// does; an array field equals a value if an element or the whole array
// does; {field: null} matches null and missing fields; $ne and $nin match
// documents without the field; embedded document equality is exact,
// member order included. Operators: $eq $ne $gt $gte $lt $lte $in $nin
// $exists $type $regex (with $options i, m, s, x, u) $size $all
// $elemMatch $mod $not, and $and $or $nor $comment around conditions. An
// unknown operator, or one outside find conditions ($where, $expr, $text,
// aggregation stages such as $match, update operators such as $set), is an
// error naming it and its path, never ignored. Regular expressions use
// Go's RE2 syntax; PCRE-only constructs (backreferences, lookaround) are
// rejected.
//
// # Shape conditions
//
// The interface's example condition is
//
//	{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}
//
// and its users expect the documents holding a SelfProclaimedCredential
// whose subject has an email. The store reads an object value as exact
// embedded-document equality, so it would find nothing here: no credential
// equals an object with a member named "$exists". This package reads such
// a value, and only such a value, as what its author means:
//
//   - An object value whose first key is an operator other than $and, $or
//     and $nor ({$gt: 1}) applies those operators to the field, as in the
//     store. (This is the rule the store uses to tell the two forms of
//     $elemMatch apart.)
//   - Any other object value with an operator key or a /regex/ literal
//     anywhere inside is a shape condition: it holds when some object the path reaches (the
//     field itself, or an element of an array field) satisfies all its
//     members at once, each read relative to that same object. It is what
//     {$elemMatch: …} says for arrays, and it also holds for a single
//     embedded object, as a credential subject is.
//   - Inside a shape condition an array literal means "contains all": the
//     field holds each item (an item array is found whole; an empty literal
//     means an empty array), so "type":["SelfProclaimedCredential"] finds a
//     credential whose type list includes that type. Nested objects follow
//     the same rules: with an operator inside they are shapes, without one
//     they are exact equality, as in the store.
//
// A value with no operator anywhere keeps exact equality, and dotted paths
// ({"credential.type":"X","credential.subject.email":{"$exists":true}})
// behave exactly as in the store; note that there the two members may be
// satisfied by different credentials, while a shape ties them to one.
// The reading departs from the store's only for values the store would
// compare with documents holding $-prefixed field names or regular
// expression values, which JSON documents never have, and for objects led
// by $and, $or or $nor, which the store rejects.
//
// # Speed
//
// Condition.Plan turns a condition into lookups of the postings an Index
// keeps (equality, $in and $exists as lookups, $and as intersections, $or
// as unions) and says whether they find exactly the matches, so that a
// store reads only the documents they find, or none. Match first searches
// the raw bytes for the quoted strings (or keys) a match must contain and
// walks the JSON only when they are there; MatchValue, on documents parsed
// once, is several times faster still. Neither allocates. A store that
// keeps documents in encoded form (Encode) matches them with
// MatchEncoded, which steps over the objects and arrays a condition's
// paths do not enter in one read each, compares numbers without parsing
// them and allocates nothing but a string that is the document's id with
// more after it, for a regular expression.
package find
