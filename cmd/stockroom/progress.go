package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	stockroom "github.com/stockroom/stockroom/clients/go/stockroom"
)

// progressReport shows an execution's progress while a command waits for it: on a
// terminal, a live bar named after the running step, with a line for each step as it
// ends; elsewhere (a log, a pipe), only those lines.
type progressReport struct {
	w        io.Writer
	live     bool
	bar      *progressbar.ProgressBar
	reported map[string]bool // the steps whose end has been shown
}

func newProgressReport(w io.Writer) *progressReport {
	return &progressReport{w: w, live: isTerminal(w), reported: map[string]bool{}}
}

// isTerminal says whether w is a terminal, where a bar can redraw itself.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// show reports one status read.
func (r *progressReport) show(p stockroom.Progress) {
	for i, step := range p.Steps {
		if r.reported[step.Name] || (step.Status != stockroom.ExecutionStatusCompleted && step.Status != stockroom.ExecutionStatusFailed) {
			continue
		}
		r.reported[step.Name] = true
		mark := "✓"
		if step.Status == stockroom.ExecutionStatusFailed {
			mark = "✗"
		}
		if r.bar != nil {
			_ = r.bar.Clear()
		}
		fmt.Fprintf(r.w, "%s [%d/%d] %s\n", mark, i+1, len(p.Steps), step.Name)
	}
	if !r.live {
		return
	}
	if r.bar == nil {
		r.bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(r.w),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
		)
	}
	if p.Total > 0 && int64(p.Total) != r.bar.GetMax64() {
		r.bar.ChangeMax(p.Total)
	}
	r.bar.Describe(describe(p))
	_ = r.bar.Set(p.Done)
}

// describe says what the execution is doing, its running step (else its status), and
// how far it has come.
func describe(p stockroom.Progress) string {
	doing := string(p.Status)
	for i, step := range p.Steps {
		if step.Status == stockroom.ExecutionStatusRunning {
			doing = fmt.Sprintf("[%d/%d] %s", i+1, len(p.Steps), step.Name)
		}
	}
	if p.Total > 0 {
		return fmt.Sprintf("%s: %d/%d %s", doing, p.Done, p.Total, p.Unit)
	}
	return fmt.Sprintf("%s: %d %s", doing, p.Done, p.Unit)
}

// finish removes the bar, if any, before the command prints its result.
func (r *progressReport) finish() {
	if r.bar != nil {
		_ = r.bar.Finish()
	}
}
