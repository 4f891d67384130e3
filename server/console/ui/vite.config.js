import { defineConfig } from 'vite';

// The app is served by the binary at /console/ from the files built into ../dist, which
// the Go package embeds. JSX is compiled by esbuild for Preact; no other plugin is needed.
export default defineConfig({
  base: '/console/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: '../dist',
    // dist/.keep is committed (go:embed needs a file); make console clears the rest.
    emptyOutDir: false,
    target: 'es2020',
  },
});
