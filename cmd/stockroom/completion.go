package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// completedCommands are the commands whose flags the completion offers: the API
// commands, whose help is read without side effects.
var completedCommands = []string{"crawl", "extract", "search", "executions", "usage"}

// flagValues are the values offered after a flag that takes one of a few words.
var flagValues = map[string]string{
	"kind":   "crawl extract search all",
	"status": "processing completed failed",
	"period": "24h 7d 30d 90d all",
}

// flagInfo is one flag of a command, as its help states it.
type flagInfo struct {
	name        string
	takesValue  bool
	description string
}

// commandFlags reads a command's flags from its help (`stockroom NAME -h`).
func commandFlags(ctx context.Context, cmd command) []flagInfo {
	var help bytes.Buffer
	_ = cmd.run(ctx, []string{"-h"}, io.Discard, &help)
	var flags []flagInfo
	lines := strings.Split(help.String(), "\n")
	for i, line := range lines {
		fields := strings.Fields(line)
		if !strings.HasPrefix(line, "  -") || len(fields) == 0 {
			continue
		}
		f := flagInfo{name: strings.TrimPrefix(fields[0], "-"), takesValue: len(fields) > 1}
		if i+1 < len(lines) {
			f.description = strings.TrimSpace(lines[i+1])
		}
		flags = append(flags, f)
	}
	return flags
}

func completionCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || (args[0] != "bash" && args[0] != "zsh") {
		return errors.New(`usage: stockroom completion bash|zsh
  bash: source <(stockroom completion bash)    (or save it in /etc/bash_completion.d/stockroom)
  zsh:  source <(stockroom completion zsh)     (or save it as _stockroom in a folder of $fpath)`)
	}
	cmds := commands()
	flags := map[string][]flagInfo{}
	for _, name := range completedCommands {
		flags[name] = commandFlags(ctx, cmds[name])
	}
	if args[0] == "bash" {
		_, err := io.WriteString(stdout, bashCompletion(flags))
		return err
	}
	_, err := io.WriteString(stdout, zshCompletion(cmds, flags))
	return err
}

func bashCompletion(flags map[string][]flagInfo) string {
	var b strings.Builder
	b.WriteString(`# bash completion of stockroom: source <(stockroom completion bash)
_stockroom() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "` + strings.Join(commandOrder, " ") + `" -- "$cur"))
        return
    fi
    case ${prev#--} in
`)
	for _, name := range slices.Sorted(maps.Keys(flagValues)) {
		fmt.Fprintf(&b, "        %s|-%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", name, name, flagValues[name])
	}
	b.WriteString(`    esac
    local flags=
    case ${COMP_WORDS[1]} in
        completion) COMPREPLY=($(compgen -W "bash zsh" -- "$cur")); return ;;
`)
	for _, name := range completedCommands {
		var names []string
		for _, f := range flags[name] {
			names = append(names, "--"+f.name)
		}
		fmt.Fprintf(&b, "        %s) flags=%q ;;\n", name, strings.Join(names, " "))
	}
	b.WriteString(`    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    fi
}
complete -o default -F _stockroom stockroom
`)
	return b.String()
}

func zshCompletion(cmds map[string]command, flags map[string][]flagInfo) string {
	var b strings.Builder
	b.WriteString(`#compdef stockroom
# zsh completion of stockroom: source <(stockroom completion zsh), or save as _stockroom in $fpath.
_stockroom() {
    local -a commands
    commands=(
`)
	for _, name := range commandOrder {
		fmt.Fprintf(&b, "        %s\n", zshQuote(name+":"+cmds[name].summary))
	}
	b.WriteString(`    )
    if (( CURRENT == 2 )); then
        _describe command commands
        return
    fi
    case $words[2] in
        completion) _values shell bash zsh ;;
`)
	for _, name := range completedCommands {
		fmt.Fprintf(&b, "        %s) _arguments", name)
		for _, f := range flags[name] {
			spec := "--" + f.name + "[" + zshEscape(f.description) + "]"
			if f.takesValue {
				switch {
				case flagValues[f.name] != "":
					spec += ":" + f.name + ":(" + flagValues[f.name] + ")"
				case f.name == "profile":
					spec += ":file:_files"
				default:
					spec += ":" + f.name + ":"
				}
			}
			b.WriteString(" \\\n            " + zshQuote(spec))
		}
		b.WriteString(" \\\n            '*:argument:' ;;\n")
	}
	b.WriteString(`    esac
}
if [[ $funcstack[1] == _stockroom ]]; then
    _stockroom "$@"
else
    compdef _stockroom stockroom
fi
`)
	return b.String()
}

// zshEscape escapes what _arguments reads in a description: brackets and colons.
func zshEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

// zshQuote quotes s for the shell, in single quotes.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
