// Package builtin embeds the adapters Stockroom ships with: builtin.wasm, which `make wasm`
// builds here from adapters/bundle/guest and which holds them all, and each adapter's
// committed manifest NAME.json, which names that module.
// The registry loads them like any other adapter directory.
package builtin

import "embed"

// FS holds the built-in manifests and modules at its root. The pattern takes the whole
// directory so the package compiles before `make wasm` has built any module; the registry
// then reports each missing module by name.
//
//go:embed *
var FS embed.FS
