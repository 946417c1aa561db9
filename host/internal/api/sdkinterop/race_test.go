//go:build race

package sdkinterop

// raceEnabled builds the node under the race detector too when the test
// runs under it, so that the SDK's traffic is raced through the node.
const raceEnabled = true
