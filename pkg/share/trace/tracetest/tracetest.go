// Package tracetest validates Agent Trace records against the
// specification's JSON Schema, for tests (no binary links it).
package tracetest

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/git-convo/git-convo/pkg/util/testshared"
)

// SchemaPath is the schema in ../shared beside the repository, or false on a
// clone with nothing beside it.
func SchemaPath() (string, bool) {
	return testshared.Path("agent-trace", "trace-record.schema.json")
}

// Validate checks each record (JSON) against the schema. Without the schema
// file it only says so: the caller's own checks still run.
func Validate(t testing.TB, records ...[]byte) {
	t.Helper()
	path, ok := SchemaPath()
	if !ok {
		t.Logf("no Agent Trace schema in ../shared/agent-trace: schema validation skipped")
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range records {
		var v any
		if err := json.Unmarshal(rec, &v); err != nil {
			t.Fatalf("not JSON: %v: %s", err, rec)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("record does not validate against the Agent Trace schema: %v\n%s", err, rec)
		}
	}
}
