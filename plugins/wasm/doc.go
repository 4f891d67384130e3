// Package wasm runs store-platform adapters compiled to WebAssembly: it implements the
// host side of ABI v1 (adapters/ABI.md) on wazero, keeps a pool of ready instances per
// adapter and isolates the server from a misbehaving one.
//
// This comment is a tour of the package. plugins/RATIONALE.md explains why it is built
// this way, with the measurements; adapters/ABI.md is the contract an adapter author
// reads. The Example loads a small adapter and calls it.
//
// # Loading an adapter
//
// One Runtime serves every adapter of a process. Load compiles a module, checks that it
// speaks an ABI this host knows (ABIMajor, up to ABIMinor), fills its pool of instances
// and asks the adapter to describe itself:
//
//	rt, err := wasm.New(ctx, wasm.Config{CacheDir: ".data/adapter-cache"})
//	defer rt.Close(ctx)
//	shop, err := rt.Load(ctx, "shop", moduleBytes)
//	defer shop.Close(ctx)
//	fmt.Println(shop.Info().Capabilities) // [detect discover list extract], or fewer
//
// Compiled code is kept in wazero's compilation cache (Config.CacheDir), so a restart
// loads an adapter quickly. Adapters loaded from the same module share its compiled
// code: the built-in adapters are one module, each told which adapter to be through the
// STOCKROOM_ADAPTER environment variable. In the server, plugins/registry does the
// loading: it reads adapter directories (a NAME.wasm beside its NAME.json manifest) and
// reloads an adapter when its files change.
//
// # Calling an adapter
//
// A Module implements adapter.Module, so core/ calls it like any adapter without knowing
// it runs in WebAssembly:
//
//	resp, err := shop.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: page.URL, Docs: []*adapter.Document{page}})
//
// A call takes a ready instance from the pool, waiting under ctx when all are busy; no
// instance is ever made while a request waits. The guest reads the documents through host
// functions (hostfuncs.go): the host parses each page once, natively (plugins/document),
// and the guest queries it by handle, so only the answers cross into the guest. The
// guest's answer is decoded by plugins/wire.
//
// An error from Call means the adapter failed: it trapped, ran out of time or memory, or
// answered something that is not a valid response. A page without a product is not an
// error; it is an outcome in the response.
//
// # Isolation
//
// A guest is untrusted code, and the host bounds everything it can take:
//
//   - Time: each round of a call has Config.CallTimeout. When the deadline passes, the
//     guest is stopped at its next loop head (interrupt.go rewrites the module's loops
//     at load; see Interrupt for the other ways).
//   - Memory: each instance's linear memory is capped (Config.MemoryLimit), and an
//     instance that ends a call with more than Config.RecycleAbove is replaced.
//   - Output: answers over Config.MaxOutput are refused, and the host hands out a bounded
//     number of handles per call.
//
// An instance that trapped, timed out or grew too large is retired, and a replacement is
// made in the background. The other instances, and the server, carry on.
package wasm
