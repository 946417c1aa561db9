// Package eidtest gives tests an EID upstream, recorded or live.
//
// It gives tests an EID upstream: answers a real EID node gave, recorded by
// cmd/eidrecord and replayed by an in-process server, or with EID_GETH set,
// a live private EID node running the same scenario.
package eidtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"
)

// Exchange is one HTTP exchange with the node: the request body as sent and
// the response body as received, byte for byte. A recording file holds one
// Exchange a line (JSON Lines); the bodies sit in it verbatim, so that the
// files read and diff as JSON.
type Exchange struct {
	Note    string          `json:"note"`    // what the recorder meant to ask
	Request json.RawMessage `json:"request"` // the body sent
	Status  int             `json:"status"`  // the HTTP status
	// Response is the body received when it is one JSON value; Tail the
	// bytes after it (geth ends its answers with "\n"). A body that is not
	// JSON is in ResponseText instead, or in ResponseBytes when it is not
	// UTF-8 either.
	Response      json.RawMessage `json:"response,omitempty"`
	Tail          string          `json:"tail,omitempty"`
	ResponseText  string          `json:"responseText,omitempty"`
	ResponseBytes []byte          `json:"responseBytes,omitempty"`
}

// NewExchange splits a received body into Response and Tail, or keeps it
// as ResponseText when it is not one JSON value followed by white space.
func NewExchange(note string, request []byte, status int, body []byte) Exchange {
	x := Exchange{Note: note, Request: bytes.Clone(request), Status: status}
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if err := dec.Decode(&v); err == nil {
		end := int(dec.InputOffset())
		if bytes.Equal(body[:end], v) && len(bytes.TrimSpace(body[end:])) == 0 {
			x.Response, x.Tail = v, string(body[end:])
			return x
		}
	}
	if utf8.Valid(body) {
		x.ResponseText = string(body)
	} else {
		x.ResponseBytes = bytes.Clone(body)
	}
	return x
}

// Body returns the response body exactly as the node sent it.
func (x Exchange) Body() []byte {
	switch {
	case x.ResponseBytes != nil:
		return bytes.Clone(x.ResponseBytes)
	case x.Response == nil:
		return []byte(x.ResponseText)
	}
	return append(bytes.Clone([]byte(x.Response)), x.Tail...)
}

// AppendLine appends x as one line of a recording: the bodies are written
// as they are (json.Marshal would compact and re-escape them).
func (x Exchange) AppendLine(dst []byte) []byte {
	str := func(s string) []byte { b, _ := json.Marshal(s); return b }
	dst = append(dst, `{"note":`...)
	dst = append(dst, str(x.Note)...)
	dst = append(dst, `,"request":`...)
	if json.Valid(x.Request) && !bytes.ContainsAny(x.Request, "\n\r") {
		dst = append(dst, x.Request...)
	} else {
		dst = append(dst, str(string(x.Request))...) // not JSON: kept as a string, and ReadFile gives it back as such
	}
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendInt(dst, int64(x.Status), 10)
	if x.Response != nil {
		dst = append(dst, `,"response":`...)
		dst = append(dst, x.Response...)
		dst = append(dst, `,"tail":`...)
		dst = append(dst, str(x.Tail)...)
	} else if x.ResponseBytes != nil {
		b, _ := json.Marshal(x.ResponseBytes) // base64
		dst = append(dst, `,"responseBytes":`...)
		dst = append(dst, b...)
	} else {
		dst = append(dst, `,"responseText":`...)
		dst = append(dst, str(x.ResponseText)...)
	}
	return append(dst, "}\n"...)
}

// ReadFile reads a recording file: one Exchange a line.
func ReadFile(path string) ([]Exchange, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		var x Exchange
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			return nil, fmt.Errorf("eidtest: %s:%d: %w", path, line, err)
		}
		out = append(out, x)
	}
	return out, sc.Err()
}

// Dir is where the committed recording is, relative to this package.
const Dir = "testdata/recording"

// Recording files in Dir.
const (
	ManifestFile = "manifest.json" // the scenario's manifest (scenario.Manifest)
	ChainFile    = "chain.json"    // the node's version, genesis and signer
	ChainRPCFile = "chain.jsonl"   // answers that do not change: blocks, transactions, receipts, chain id
)

// CheckpointFile returns the name of the file holding the answers recorded
// at a checkpoint.
func CheckpointFile(checkpoint string) string { return "checkpoint-" + checkpoint + ".jsonl" }

// recordingDir returns Dir as a path from any test's working directory:
// Go runs tests in their package's directory, so the path is found from
// this source file's package through the module root.
func recordingDir() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "host", "internal", "eidtest", Dir), nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("eidtest: no go.mod above the working directory")
		}
		dir = parent
	}
}
