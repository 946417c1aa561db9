// Package answers keeps the answers a chain's reads build, for the tip they were built at.
package answers
