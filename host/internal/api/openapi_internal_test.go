package api

import "testing"

// Every JSON-RPC method has its description, and every description its
// method: the OpenAPI document lists the methods from methods, so a
// description left after its method went would be read by no one.
func TestMethodDocs(t *testing.T) {
	for name := range methods {
		if methodDocs[name] == "" {
			t.Errorf("method %s has no description in methodDocs", name)
		}
	}
	for name := range methodDocs {
		if _, ok := methods[name]; !ok {
			t.Errorf("methodDocs describes %s, which is not a method", name)
		}
	}
}
