package kit

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/stockroom/stockroom/plugins/registry"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// Install copies the adapter module at file into the adapters folder dir and writes its
// manifest there (WriteManifests), so that the service loads it at its next look at the
// folder. The module keeps the file name its manifest in dir gives, else NAME.wasm. Its
// priority is priority when not nil, else that of the manifest it replaces, else that of
// the manifest beside file, else 0.
func (e Env) Install(ctx context.Context, w io.Writer, file, dir string, priority *int) error {
	rt, err := e.runtime(ctx)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	bin, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	beside := manifestsBeside(file)
	var held []string
	priorities := map[string]int{}
	for _, m := range beside {
		held = append(held, m.Name)
		priorities[m.Name] = m.Priority
	}
	if len(held) == 0 {
		mod, err := rt.Load(ctx, strings.TrimSuffix(filepath.Base(file), ".wasm"), bin)
		if err != nil {
			return fmt.Errorf("install %s: %w", file, err)
		}
		held = append(held, mod.Info().Name)
		mod.Close(ctx)
	}
	installed, err := readManifests(dir)
	if err != nil {
		return err
	}
	module := held[0] + ".wasm"
	if m, ok := installed[held[0]]; ok {
		module = cmp.Or(m.File, module)
		priorities[m.Name] = m.Priority
	}
	if priority != nil {
		for _, name := range held {
			priorities[name] = *priority
		}
	}
	if err := writeFileAtomic(filepath.Join(dir, module), bin); err != nil {
		return fmt.Errorf("install %s: %w", file, err)
	}
	return e.writeManifests(ctx, rt, w, dir, module, held, priorities)
}

// WriteManifests writes the manifest of every adapter module (*.wasm) in the adapters
// folder dir, as the service reads them (adapters/ABI.md, "Loading"): a module's
// manifests are brought up to date (its adapters' versions and its sha256, keeping their
// priority), and a module that none names gets one from its own name and version, at
// priority 0. Each module is then loaded as the service would load it, checksum
// required, so that a manifest written is one the service accepts.
func (e Env) WriteManifests(ctx context.Context, w io.Writer, dir string) error {
	rt, err := e.runtime(ctx)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	modules, err := filepath.Glob(filepath.Join(dir, "*.wasm"))
	if err != nil {
		return err
	}
	if len(modules) == 0 {
		return fmt.Errorf("no adapter modules (*.wasm) in %s", dir)
	}
	var errs []error
	for _, m := range modules {
		errs = append(errs, e.writeManifests(ctx, rt, w, dir, filepath.Base(m), nil, nil))
	}
	installed, err := readManifests(dir)
	if err != nil {
		return err
	}
	for _, m := range installed {
		if _, err := os.Stat(filepath.Join(dir, cmp.Or(m.File, m.Name+".wasm"))); err != nil {
			errs = append(errs, fmt.Errorf("manifest %s.json: its module: %w", m.Name, err))
		}
	}
	return errors.Join(errs...)
}

// writeManifests writes the manifests of the module file in dir (a file name): those in
// dir that name it, updated, or, when there are none, one for each adapter of held (the
// module's own adapter when held is empty). priorities sets the priority of the adapters
// it names. It then loads the module with those manifests through the registry, checksum
// required, and writes a line per manifest to w.
func (e Env) writeManifests(ctx context.Context, rt *wasm.Runtime, w io.Writer, dir, module string, held []string, priorities map[string]int) error {
	bin, err := os.ReadFile(filepath.Join(dir, module))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(bin)
	installed, err := readManifests(dir)
	if err != nil {
		return err
	}
	var manifests []registry.Manifest
	for _, m := range installed {
		if cmp.Or(m.File, m.Name+".wasm") == module {
			manifests = append(manifests, m)
		}
	}
	if len(manifests) == 0 {
		if len(held) == 0 {
			mod, err := rt.Load(ctx, strings.TrimSuffix(module, ".wasm"), bin)
			if err != nil {
				return fmt.Errorf("%s: %w", module, err)
			}
			held = append(held, mod.Info().Name)
			mod.Close(ctx)
		}
		for _, name := range held {
			if other, taken := installed[name]; taken {
				return fmt.Errorf("%s: adapter %s is installed from %s already", module, name, cmp.Or(other.File, name+".wasm"))
			}
			manifests = append(manifests, registry.Manifest{Name: name})
		}
	}
	check := fstest.MapFS{module: {Data: bin}}
	for i := range manifests {
		m := &manifests[i]
		mod, err := rt.Load(ctx, m.Name, bin)
		if err != nil {
			return fmt.Errorf("%s: %w", module, err)
		}
		info := mod.Info()
		mod.Close(ctx)
		if info.Name != m.Name {
			return fmt.Errorf("%s: the module serves adapter %s, not %s", module, info.Name, m.Name)
		}
		m.Version, m.SHA256 = info.Version, hex.EncodeToString(sum[:])
		if module != m.Name+".wasm" {
			m.File = module
		}
		if p, ok := priorities[m.Name]; ok {
			m.Priority = p
		}
		raw, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		check[m.Name+".json"] = &fstest.MapFile{Data: raw}
	}
	reg := registry.New(rt, e.logger())
	defer reg.Close(ctx)
	if err := reg.Sync(ctx, dir, check, registry.Options{RequireChecksum: true}); err != nil {
		return err
	}
	for _, m := range manifests {
		if err := writeFileAtomic(filepath.Join(dir, m.Name+".json"), append(check[m.Name+".json"].Data, '\n')); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s %s (%s, sha256 %s, priority %d)\n", m.Name, m.Version, module, m.SHA256[:12], m.Priority)
	}
	return nil
}

// readManifests reads the manifests in dir by adapter name; a file that is no manifest is
// skipped, as the service refuses it anyway.
func readManifests(dir string) (map[string]registry.Manifest, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]registry.Manifest{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var m registry.Manifest
		if json.Unmarshal(raw, &m) == nil && m.Name != "" && filepath.Base(p) == m.Name+".json" {
			out[m.Name] = m
		}
	}
	return out, nil
}

// writeFileAtomic writes data to path through a temporary file renamed into place, so
// that the service, which watches the folder, never reads a file half written.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
