package main

import "slices"

// downConvert rewrites an OpenAPI 3.1 document, decoded from YAML or JSON into maps and
// slices, as OpenAPI 3.0 for oapi-codegen, which reads 3.0 only. It changes the document in
// place and keeps what a client generator needs: the types and their nullability. It
// drops what 3.0 cannot say and a generator does not use (unevaluatedProperties,
// propertyNames, webhooks), so its output is a build input, never a document to publish.
func downConvert(doc map[string]any) {
	doc["openapi"] = "3.0.3"
	delete(doc, "webhooks")
	delete(doc, "jsonSchemaDialect")
	if info, ok := doc["info"].(map[string]any); ok {
		delete(info, "summary")
		if license, ok := info["license"].(map[string]any); ok {
			delete(license, "identifier")
		}
	}
	if components, ok := doc["components"].(map[string]any); ok {
		delete(components, "pathItems")
	}
	for key, value := range doc {
		if key != "openapi" && key != "info" {
			walk(value)
		}
	}
}

// nameKeyed are the keywords whose value maps names (of properties, schemas, status
// codes, media types and so on) to objects: the names are data, only the objects are
// rewritten.
var nameKeyed = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "schemas": true,
	"parameters": true, "responses": true, "headers": true, "content": true, "paths": true,
	"requestBodies": true, "securitySchemes": true, "links": true, "callbacks": true,
	"encoding": true, "variables": true, "mapping": true,
}

// dataValued are the keywords whose value is an instance, not a schema: left as written.
var dataValued = map[string]bool{"example": true, "default": true, "enum": true, "const": true}

// walk rewrites every schema-bearing object under v.
func walk(v any) {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			walk(item)
		}
	case map[string]any:
		rewriteKeywords(v)
		for key, value := range v {
			switch {
			case dataValued[key] || len(key) > 2 && key[:2] == "x-":
			case key == "examples":
				// A media type's or parameter's named examples hold instances too.
			case nameKeyed[key]:
				if names, ok := value.(map[string]any); ok {
					for _, object := range names {
						walk(object)
					}
				}
			default:
				walk(value)
			}
		}
	}
}

// rewriteKeywords turns the 3.1 keywords of one object into their 3.0 equivalents.
func rewriteKeywords(m map[string]any) {
	// type: [T, "null"] is type: T with nullable: true.
	if types, ok := m["type"].([]any); ok {
		rest := slices.DeleteFunc(slices.Clone(types), func(t any) bool { return t == "null" })
		if len(rest) < len(types) {
			m["nullable"] = true
		}
		if len(rest) == 1 {
			m["type"] = rest[0]
		} else {
			delete(m, "type")
		}
	}
	// oneOf: [S, {type: "null"}] is S, nullable.
	for _, keyword := range []string{"oneOf", "anyOf"} {
		options, ok := m[keyword].([]any)
		if !ok {
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(options), isNullSchema)
		if len(rest) == len(options) {
			continue
		}
		m["nullable"] = true
		switch {
		case len(rest) == 1 && isReference(rest[0]):
			delete(m, keyword)
			m["allOf"] = rest
		case len(rest) == 1:
			delete(m, keyword)
			for k, v := range rest[0].(map[string]any) {
				m[k] = v
			}
		default:
			m[keyword] = rest
		}
	}
	// A JSON number is a double; without a format oapi-codegen would read it as a float32.
	if m["type"] == "number" && m["format"] == nil {
		m["format"] = "double"
	}
	if value, ok := m["const"]; ok {
		delete(m, "const")
		if _, has := m["enum"]; !has {
			m["enum"] = []any{value}
		}
	}
	if examples, ok := m["examples"].([]any); ok {
		delete(m, "examples")
		if len(examples) > 0 {
			m["example"] = examples[0]
		}
	}
	for _, keyword := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
		if bound, ok := m[keyword]; ok && bound != true && bound != false {
			m[keyword] = true
			m[map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"}[keyword]] = bound
		}
	}
	for _, keyword := range []string{"unevaluatedProperties", "propertyNames", "$schema", "$id", "$comment", "contentMediaType", "contentEncoding"} {
		delete(m, keyword)
	}
}

func isNullSchema(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 1 && m["type"] == "null"
}

func isReference(v any) bool {
	m, ok := v.(map[string]any)
	_, has := m["$ref"]
	return ok && has
}
