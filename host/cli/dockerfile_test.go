package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/nodetest"
	"github.com/didlight/didlight/host/internal/testenv"
	"github.com/didlight/didlight/wasm/js"
)

// instruction is one instruction of a Dockerfile: its keyword (upper
// case) and the rest, continuation lines joined.
type instruction struct{ cmd, args string }

// stage is one build stage: its FROM line and its instructions.
type stage struct {
	from  string
	steps []instruction
}

// readDockerfile reads the repository's Dockerfile into its stages.
func readDockerfile(t *testing.T) []stage {
	t.Helper()
	f, err := os.Open("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stages []stage
	var line strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if line.Len() == 0 && (text == "" || strings.HasPrefix(text, "#")) {
			continue
		}
		if cont, ok := strings.CutSuffix(text, `\`); ok {
			line.WriteString(cont + " ")
			continue
		}
		line.WriteString(text)
		cmd, args, _ := strings.Cut(line.String(), " ")
		line.Reset()
		in := instruction{strings.ToUpper(cmd), strings.TrimSpace(args)}
		if in.cmd == "FROM" {
			stages = append(stages, stage{from: in.args})
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("Dockerfile: %s before FROM", in.cmd)
		}
		stages[len(stages)-1].steps = append(stages[len(stages)-1].steps, in)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return stages
}

// all returns the arguments of the stage's instructions of kind cmd.
func (s stage) all(cmd string) []string {
	var out []string
	for _, in := range s.steps {
		if in.cmd == cmd {
			out = append(out, in.args)
		}
	}
	return out
}

// runLine returns the stage's RUN line that contains want.
func (s stage) runLine(t *testing.T, want string) string {
	t.Helper()
	for _, r := range s.all("RUN") {
		if strings.Contains(r, want) {
			return r
		}
	}
	t.Fatalf("the build stage runs no %q", want)
	return ""
}

// The Dockerfile, checked without Docker: a multi-stage build whose
// runtime stage holds the binary only; its build commands, run here as
// they are written (the module and the binary into a temporary directory),
// make a binary that, started with the image's entrypoint and environment,
// refuses to start without an upstream, and given one by its variable
// serves W3C DID resolution: as a follower of a didlight node, for what it
// synced, and as a light node of an EID node, for what it verified.
func TestDockerfile(t *testing.T) {
	stages := readDockerfile(t)
	if len(stages) < 2 {
		t.Fatalf("%d stages, want a multi-stage build", len(stages))
	}
	build, runtime := stages[len(stages)-2], stages[len(stages)-1]
	if !strings.HasPrefix(runtime.from, "gcr.io/distroless/static") || len(runtime.all("RUN")) != 0 {
		t.Errorf("the runtime stage is %q and runs %q: want the binary alone on a static base", runtime.from, runtime.all("RUN"))
	}
	for _, c := range runtime.all("COPY") {
		if !strings.HasPrefix(c, "--from=build ") {
			t.Errorf("the runtime stage copies %q, not from the build stage", c)
		}
	}
	if u := runtime.all("USER"); len(u) != 1 || u[0] == "root" || u[0] == "0" {
		t.Errorf("USER %q: want a non-root user", u)
	}
	if e := runtime.all("EXPOSE"); len(e) != 1 || !slices.Contains(strings.Fields(e[0]), "8080") {
		t.Errorf("EXPOSE %q: want 8080, where a Universal Resolver calls its drivers", e)
	}
	var entrypoint []string
	if e := runtime.all("ENTRYPOINT"); len(e) != 1 || json.Unmarshal([]byte(e[0]), &entrypoint) != nil || len(entrypoint) < 2 || entrypoint[0] != "/didlight" || entrypoint[1] != "node" {
		t.Fatalf("ENTRYPOINT %q: want the exec form of /didlight node", e)
	}
	if len(runtime.all("CMD")) != 0 {
		t.Errorf("CMD %q: flags belong in ENV, so that `docker run image --flag` adds to them", runtime.all("CMD"))
	}
	env := map[string]string{}
	for _, e := range runtime.all("ENV") {
		for _, kv := range strings.Fields(e) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || !strings.HasPrefix(k, envPrefix) {
				t.Fatalf("ENV %q: want DIDLIGHT_NAME=value pairs", kv)
			}
			env[k] = v
		}
	}
	imageNode := func(more ...string) (nodeConfig, error) {
		return parseNodeFlags(entrypoint[2:], func(k string) string {
			for i := 0; i+1 < len(more); i += 2 {
				if more[i] == k {
					return more[i+1]
				}
			}
			return env[k]
		}, io.Discard)
	}
	if _, err := imageNode(); err == nil || !strings.Contains(err.Error(), "--require-upstream") {
		t.Errorf("the image's node given no upstream: %v; want it refused", err)
	}
	cfg, err := imageNode("DIDLIGHT_FOLLOW", "http://upstream:20334")
	if err != nil || cfg.follow == "" || cfg.restAddr != "0.0.0.0:8080" || cfg.mem || cfg.dataDir != "/data" || !slices.Contains(runtime.all("VOLUME"), cfg.dataDir) {
		t.Fatalf("the image's node with DIDLIGHT_FOLLOW: %+v, %v; want a follower keeping its chain in the volume and serving REST on 0.0.0.0:8080", cfg, err)
	}
	cfg, err = imageNode("DIDLIGHT_LIGHT", "mainnet")
	if err != nil || !slices.Equal(cfg.light.endpoints.urls, []string{"mainnet"}) || cfg.restAddr != "0.0.0.0:8080" {
		t.Fatalf("the image's node with DIDLIGHT_LIGHT: %+v, %v; want a light node of mainnet serving REST on 0.0.0.0:8080", cfg, err)
	}

	// The build commands, as written, into a temporary directory: the
	// module goes where the binary's embed reads it through an overlay.
	_, err = testenv.Shim("../..")
	testenv.Check(t, err)
	dir := t.TempDir()
	module, bin := filepath.Join(dir, "didlight.wasm"), filepath.Join(dir, "didlight")
	wasmLine := build.runLine(t, "wasmbuild")
	goLine := build.runLine(t, "go build")
	if !strings.Contains(wasmLine, "-o wasm/js/didlight.wasm") || !strings.Contains(goLine, "-tags "+js.BuildTag) || !strings.Contains(goLine, "-o /out/didlight ./cmd/didlight") {
		t.Fatalf("the build lines do not make what the runtime stage copies:\n%s\n%s", wasmLine, goLine)
	}
	root, _ := filepath.Abs("../..")
	overlay := filepath.Join(dir, "overlay.json")
	o, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(root, "wasm/js/didlight.wasm"): module}})
	if err := os.WriteFile(overlay, o, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		strings.Replace(wasmLine, "-o wasm/js/didlight.wasm", "-o "+module, 1),
		strings.Replace(goLine, "-o /out/didlight", "-o "+bin, 1),
	} {
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=-overlay="+overlay)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
	}

	// The binary as the image starts it, but on loopback and a temporary
	// volume, following an upstream that holds a DID.
	up := nodetest.Start(t)
	subject, _ := publishTestDID(t, up, "docker test")
	cmd := exec.Command(bin, entrypoint[1:]...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "DIDLIGHT_DATADIR="+filepath.Join(dir, "data"), "DIDLIGHT_REST_ADDR=127.0.0.1:0", "DIDLIGHT_RPC_ADDR=127.0.0.1:0",
		"DIDLIGHT_FOLLOW="+up.REST, "HOME="+dir)
	rest := startBanner(t, cmd)
	url := strings.TrimSuffix(rest, "/api/v1") + "/1.0/identifiers/" + subject.String()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url)
		var body []byte
		if err == nil {
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 && strings.Contains(string(body), `"id":"`+subject.String()+`"`) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the follower does not resolve %s: %v %s", subject, err, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	resp, err := http.Get(strings.TrimSuffix(rest, "/api/v1") + "/wasm/didlight.wasm")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("the image's binary serves no module to the browser app: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}

	// The same binary as a light node of an EID node, which the replay
	// of the recorded scenario stands in for.
	eidNode := eidtest.NewUpstream(t, eidtest.Options{})
	carol := eidNode.Manifest.DIDs[2].DID
	cmd = exec.Command(bin, entrypoint[1:]...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "DIDLIGHT_REST_ADDR=127.0.0.1:0", "DIDLIGHT_RPC_ADDR=127.0.0.1:0", "DIDLIGHT_LIGHT="+eidNode.URL, "HOME="+dir)
	rest = startBanner(t, cmd)
	status, body := getBody(t, strings.TrimSuffix(rest, "/api/v1")+"/1.0/identifiers/"+carol)
	if status != 200 || !strings.Contains(string(body), `"id":"`+carol+`"`) {
		t.Errorf("the light node does not resolve %s: %d %.300s", carol, status, body)
	}
}

// getBody reads a URL.
func getBody(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// publishTestDID publishes on n the DID of the key derived from name,
// with services, and returns it and its key.
func publishTestDID(t *testing.T, n *nodetest.Node, name string, services ...did.Service) (did.DID, *keys.PrivateKey) {
	t.Helper()
	seed := sha256.Sum256([]byte(name))
	priv, _ := keys.NewPrivateKey(seed[:])
	subject := did.FromKey(priv.Public())
	primary := did.URL{DID: subject, Fragment: did.PrimaryKey}
	doc, err := did.NewDocument(priv.Public(), time.Now().AddDate(1, 0, 0), services...)
	if err == nil {
		doc, err = doc.Sign(priv, primary, time.Now())
	}
	var r idop.Request
	if err == nil {
		r, err = idop.NewCreate(doc, primary, priv)
	}
	if err == nil {
		_, err = n.Chain.SubmitRequest(context.Background(), r)
	}
	if err != nil {
		t.Fatal(err)
	}
	return subject, priv
}

// startBanner starts a node process, stopped when the test ends, and
// returns the REST URL its banner prints once it is ready.
func startBanner(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	var rest string
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) == 3 && f[0]+" "+f[1] == "REST API" {
			rest = f[2]
		}
		if strings.HasPrefix(line, "ready") {
			go io.Copy(io.Discard, stdout)
			return rest
		}
	}
	t.Fatalf("the node exited before it was ready:\n%s", stderr.String())
	return ""
}
