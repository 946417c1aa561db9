package didindex

import (
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// The buckets of the index. Keys and values are encoded by package record.
const (
	BucketDIDs      = "dids"        // did.DID.Key → record.DID; its sequence counts DIDs
	BucketHistory   = "history"     // HistoryKey → record.Entry
	BucketViews     = "views"       // creation sequence → record.View, for DIDs not deactivated
	BucketDocs      = "docs"        // creation sequence → the latest document in normalized form, for DIDs not deactivated
	BucketServices  = "services"    // PostingKey(service type, seq) → DID key
	BucketCredTypes = "credtypes"   // PostingKey(credential type, seq) → DID key
	BucketCredHist  = "credhistory" // HistoryKey(credential id's did.URL.Key, height, position) → record.Entry
	BucketCreds     = "credentials" // credential id's did.URL.Key → record.Credential
	BucketOwned     = "owned"       // PostingKey(owner's DID key, sequence) → credential id; its sequence counts declares
	BucketFields    = "fields"      // FieldKey(FieldPrefix(path, value), chunk) → bitmap.Container: postings of the views (viewIndex) by creation sequence
	BucketCounts    = "counts"      // CountKey(bucket, prefix) → how many keys of the bucket have the prefix; views: how many
)

// Buckets are the buckets of the index, in the order a store lists them.
var Buckets = []string{BucketDIDs, BucketHistory, BucketViews, BucketDocs, BucketServices, BucketCredTypes,
	BucketCredHist, BucketCreds, BucketOwned, BucketFields, BucketCounts}

// bucket returns a bucket of tx (record.Bucket).
func bucket(tx store.Tx, name string) store.Bucket { return record.Bucket(tx, name) }
