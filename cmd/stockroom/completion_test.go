package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// completions loads the bash completion and answers what it offers for the words typed.
func completions(t *testing.T, script string, words ...string) string {
	t.Helper()
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, "'"+w+"'")
	}
	test := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" + itoa(len(words)-1) + "\n_stockroom\necho \"${COMPREPLY[*]}\"\n"
	out, err := exec.Command("bash", "-c", test).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	var script bytes.Buffer
	if status := run(context.Background(), []string{"completion", "bash"}, &script, os.Stderr); status != 0 {
		t.Fatalf("completion bash: exit %d", status)
	}
	path := filepath.Join(t.TempDir(), "stockroom.bash")
	if err := os.WriteFile(path, script.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"stockroom", "ex"}, "extract executions"},
		{[]string{"stockroom", "search", "--pr"}, "--profile"},
		{[]string{"stockroom", "extract", "--v"}, "--vendor"},
		{[]string{"stockroom", "usage", "--period", "7"}, "7d"},
		{[]string{"stockroom", "executions", "--kind", "s"}, "search"},
		{[]string{"stockroom", "completion", "z"}, "zsh"},
	}
	for _, tt := range tests {
		if got := completions(t, path, tt.words...); got != tt.want {
			t.Errorf("%v: offered %q, want %q", tt.words, got, tt.want)
		}
	}
}

// The zsh completion is valid zsh and names every flag of the API commands.
func TestZshCompletion(t *testing.T) {
	var script bytes.Buffer
	if status := run(context.Background(), []string{"completion", "zsh"}, &script, os.Stderr); status != 0 {
		t.Fatalf("completion zsh: exit %d", status)
	}
	for _, want := range []string{"#compdef stockroom", "'--profile[a JSON file with the customer profile, to personalize the results]:file:_files'", `'--period[24h, 7d, 30d, 90d or all (default "30d")]:period:(24h 7d 30d 90d all)'`} {
		if !strings.Contains(script.String(), want) {
			t.Errorf("zsh completion lacks %s", want)
		}
	}
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed: the script's syntax is not checked")
	}
	cmd := exec.Command(zsh, "-n")
	cmd.Stdin = &script
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
}
