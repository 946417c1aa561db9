package abi

// Outputs are written without encoding/json too, byte for byte as its
// Encoder with SetEscapeHTML(false) writes them (jsontext.Std): members in
// field order, strings escaped as it escapes them, raw values (always
// compact here) as they are.

// output is an output type that writes itself as a JSON object.
type output interface {
	appendJSON(b []byte) []byte
}
