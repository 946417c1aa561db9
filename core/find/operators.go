package find

import "strings"

// fieldOperators are the operators that apply to a field value.
var fieldOperators = map[string]bool{
	"$eq": true, "$ne": true, "$gt": true, "$gte": true, "$lt": true, "$lte": true,
	"$in": true, "$nin": true, "$exists": true, "$type": true, "$regex": true, "$options": true,
	"$size": true, "$all": true, "$elemMatch": true, "$not": true, "$mod": true,
}

// queryOperators stand where field names do: they combine or annotate
// whole conditions, or would evaluate the whole document.
var queryOperators = map[string]bool{
	"$and": true, "$or": true, "$nor": true, "$comment": true,
	"$where": true, "$expr": true, "$text": true, "$jsonSchema": true,
}

// unsupported names operators people reach for that a find condition here
// does not evaluate, with the reason.
var unsupported = unsupportedOperators()

func unsupportedOperators() map[string]string {
	m := map[string]string{
		"$where":      "runs JavaScript, which a find condition here cannot",
		"$function":   "runs JavaScript, which a find condition here cannot",
		"$expr":       "takes aggregation expressions, which a find condition here does not evaluate",
		"$jsonSchema": "schema validation is not part of the supported find conditions",
		"$text":       "needs a text index; use $regex",
		"$search":     "needs a search index; use $regex",
		"$sampleRate": "random sampling is not part of the supported find conditions",
	}
	groups := []struct{ ops, reason string }{
		{"$near $nearSphere $geoWithin $geoIntersects $within $box $center $centerSphere $polygon $geometry $maxDistance $minDistance",
			"geospatial operators are not part of the supported find conditions"},
		{"$bitsAllSet $bitsAnySet $bitsAllClear $bitsAnyClear", "bitwise operators are not part of the supported find conditions"},
		{"$match $group $project $sort $limit $skip $lookup $unwind $addFields $count $facet $replaceRoot $replaceWith $sample $out $merge $bucket $sortByCount $unionWith $graphLookup",
			"is an aggregation stage, not a find condition"},
		{"$set $unset $inc $mul $rename $setOnInsert $min $max $currentDate $push $pull $pullAll $addToSet $pop $each $position $bit",
			"is an update operator, not a find condition"},
		{"$slice $meta", "is a projection operator, not a find condition"},
	}
	for _, g := range groups {
		for _, op := range strings.Fields(g.ops) {
			m[op] = g.reason
		}
	}
	return m
}

// badOperator reports a $-key that is not a supported operator.
func badOperator(op, at string) error {
	if reason, ok := unsupported[op]; ok {
		return &ConditionError{UnsupportedOperator, op, at, reason}
	}
	if strings.HasPrefix(op, "$") {
		return &ConditionError{UnknownOperator, op, at, "not a find-condition operator"}
	}
	return &ConditionError{UnknownOperator, op, at, "a field name among operators; operators and fields cannot mix in one object"}
}

// compileOperators compiles an operator object such as {$gt: 1, $lt: 5}
// to a value-level matcher: the conjunction of its operators.
func compileOperators(v *Value, at string) (matcher, error) {
	var options *Value
	for i, key := range v.keys {
		if key != "$options" {
			continue
		}
		if options != nil {
			return nil, &ConditionError{InvalidArgument, key, at, "given twice"}
		}
		options = &v.items[i]
	}
	var all and
	hasRegex := false
	for i, key := range v.keys {
		var m matcher
		var err error
		switch key {
		case "$options":
			continue
		case "$regex":
			hasRegex = true
			m, err = compileRegexOperator(&v.items[i], options, at)
		default:
			m, err = compileOperator(key, &v.items[i], at)
		}
		if err != nil {
			return nil, err
		}
		all = append(all, m)
	}
	if options != nil && !hasRegex {
		return nil, &ConditionError{InvalidArgument, "$options", at, "needs a $regex beside it"}
	}
	return conjunction(all), nil
}

var comparisons = map[string]cmpOp{"$eq": opEq, "$gt": opGt, "$gte": opGte, "$lt": opLt, "$lte": opLte}

// compileOperator compiles one field operator other than $regex/$options.
func compileOperator(op string, arg *Value, at string) (matcher, error) {
	if c, ok := comparisons[op]; ok {
		return &compare{c, arg}, nil
	}
	switch op {
	case "$ne":
		return not{&compare{opEq, arg}}, nil
	case "$in", "$nin":
		m, err := compileIn(op, arg, at)
		if err != nil || op == "$in" {
			return m, err
		}
		// $nin and $ne match documents that lack the field.
		// https://www.mongodb.com/docs/manual/reference/operator/query/nin/
		return not{m}, nil
	case "$exists":
		// The argument is read for truth, as the store does: false, 0 and
		// null mean false.
		// https://www.mongodb.com/docs/manual/reference/operator/query/exists/
		if arg.kind == kindNull || (arg.kind == kindBool || arg.kind == kindNumber) && arg.num == 0 {
			return not{exists{}}, nil
		}
		return exists{}, nil
	case "$type":
		return compileTypes(arg, at)
	case "$size":
		return compileSize(arg, at)
	case "$mod":
		return compileMod(arg, at)
	case "$all":
		return compileAll(arg, at)
	case "$elemMatch":
		return compileElemMatch(arg, at)
	case "$not":
		return compileNot(arg, at)
	}
	if queryOperators[op] && unsupported[op] == "" {
		return nil, &ConditionError{MisplacedOperator, op, at, "combines whole conditions: write {" + op + ": [{field: …}, …]}"}
	}
	return nil, badOperator(op, at)
}
