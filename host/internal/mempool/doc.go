// Package mempool holds the transactions a node has accepted until a block takes them in.
package mempool
