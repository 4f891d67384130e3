//go:build !linux

package wasm

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator is nil where memory is not mapped: wazero's own slices back instances.
func memoryAllocator() experimental.MemoryAllocator { return nil }
