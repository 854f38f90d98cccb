// Package tracetest validates Agent Trace records against the
// specification's JSON Schema, for tests (no binary links it).
package tracetest

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// SchemaPath is the schema beside the repository, from a package directory
// two levels down (pkg/x); absent on a clone with nothing beside it.
const SchemaPath = "../../../shared/agent-trace/trace-record.schema.json"

// Validate checks each record (JSON) against the schema. Without the schema
// file it only says so: the caller's own checks still run.
func Validate(t testing.TB, records ...[]byte) {
	t.Helper()
	b, err := os.ReadFile(SchemaPath)
	if err != nil {
		t.Logf("no Agent Trace schema at %s (%v): schema validation skipped", SchemaPath, err)
		return
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
