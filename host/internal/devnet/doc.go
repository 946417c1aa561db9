// Package devnet provides the devnet's controls: moving its time, mining blocks on demand, snapshots, revert and reset.
package devnet
