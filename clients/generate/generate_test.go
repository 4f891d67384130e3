package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// root is the repository's root, seen from this package's folder.
const root = "../.."

// The committed clients are what the document generates now: a change of the document
// without `make clients` fails here.
func TestCommittedClientsMatchTheDocument(t *testing.T) {
	document, err := os.ReadFile(filepath.Join(root, documentPath))
	if err != nil {
		t.Fatal(err)
	}
	goCode, err := goClient(document)
	if err != nil {
		t.Fatal(err)
	}
	assertCommitted(t, goClientPath, goCode)

	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the TypeScript client's types are not checked")
	}
	tsTypes, err := typeScriptTypes(t.Context(), root)
	if err != nil {
		t.Fatal(err)
	}
	assertCommitted(t, filepath.Join(typeScriptDir, typeScriptTypesRel), tsTypes)
}

func assertCommitted(t *testing.T, path string, generated []byte) {
	t.Helper()
	committed, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, generated) {
		t.Errorf("%s differs from what the OpenAPI document generates: run `make clients` and commit the result", path)
	}
}

// Generating twice gives the same bytes, so a fresh generation can be compared.
func TestGoClientGenerationIsDeterministic(t *testing.T) {
	document, err := os.ReadFile(filepath.Join(root, documentPath))
	if err != nil {
		t.Fatal(err)
	}
	first, err := goClient(document)
	if err != nil {
		t.Fatal(err)
	}
	second, err := goClient(document)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Fatal("two generations from the same document differ")
	}
}

func TestDownConvert(t *testing.T) {
	tests := []struct {
		name     string
		in, want string
	}{
		{"a nullable type",
			`{type: [string, "null"], description: d}`,
			`{type: string, nullable: true, description: d}`},
		{"a nullable reference",
			`{oneOf: [{$ref: "#/components/schemas/Price"}, {type: "null"}]}`,
			`{allOf: [{$ref: "#/components/schemas/Price"}], nullable: true}`},
		{"a nullable inline object",
			`{oneOf: [{type: object, properties: {a: {type: integer}}}, {type: "null"}]}`,
			`{type: object, properties: {a: {type: integer}}, nullable: true}`},
		{"a choice with null among others",
			`{anyOf: [{type: string}, {type: integer}, {type: "null"}]}`,
			`{anyOf: [{type: string}, {type: integer}], nullable: true}`},
		{"a number is a double",
			`{type: [number, "null"]}`,
			`{type: number, format: double, nullable: true}`},
		{"const is a one-value enum",
			`{type: string, const: pending}`,
			`{type: string, enum: [pending]}`},
		{"schema examples become one example",
			`{type: string, examples: [a, b]}`,
			`{type: string, example: a}`},
		{"keywords 3.0 lacks are dropped",
			`{type: object, unevaluatedProperties: false, propertyNames: {$ref: "#/x"}}`,
			`{type: object}`},
		{"a numeric exclusive bound",
			`{type: integer, exclusiveMinimum: 0}`,
			`{type: integer, minimum: 0, exclusiveMinimum: true}`},
		{"properties named like keywords are names",
			`{properties: {const: {type: [string, "null"]}, examples: {type: string}}}`,
			`{properties: {const: {type: string, nullable: true}, examples: {type: string}}}`},
		{"instances are left as written",
			`{type: object, example: {type: [a, "null"], const: 1}, default: {examples: [1]}}`,
			`{type: object, example: {type: [a, "null"], const: 1}, default: {examples: [1]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := map[string]any{"openapi": "3.1.0", "components": map[string]any{"schemas": map[string]any{"S": decode(t, tt.in)}}}
			downConvert(doc)
			got := doc["components"].(map[string]any)["schemas"].(map[string]any)["S"]
			if g, w := mustJSON(got), mustJSON(decode(t, tt.want)); !bytes.Equal(g, w) {
				t.Errorf("got  %s\nwant %s", g, w)
			}
			if doc["openapi"] != "3.0.3" {
				t.Errorf("openapi %v", doc["openapi"])
			}
		})
	}
}

// The parts of a 3.1 document that 3.0 has no place for are dropped.
func TestDownConvertDropsWhat30Lacks(t *testing.T) {
	doc := decode(t, `{openapi: 3.1.0, info: {title: t, version: "1", summary: s, license: {name: MIT, identifier: MIT}},
		webhooks: {w: {}}, jsonSchemaDialect: d, components: {pathItems: {p: {}}}, paths: {}}`).(map[string]any)
	downConvert(doc)
	want := `{"components":{},"info":{"license":{"name":"MIT"},"title":"t","version":"1"},"openapi":"3.0.3","paths":{}}`
	if got := mustJSON(doc); string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	// Through JSON, so that numbers compare alike whatever YAML decoded them as.
	var out any
	if err := json.Unmarshal(mustJSON(v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
