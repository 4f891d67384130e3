package main

import "encoding/json"

// mustJSON encodes a document decoded from YAML. Such a document always encodes: its maps
// have string keys and its values are JSON's.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
