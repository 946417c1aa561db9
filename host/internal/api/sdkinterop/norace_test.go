//go:build !race

package sdkinterop

// raceEnabled: see race_test.go.
const raceEnabled = false
