// Package devnet provides the devnet's clock controls: moving its time, and mining blocks on demand.
package devnet
