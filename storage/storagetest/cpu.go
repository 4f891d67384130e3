package storagetest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Benchmarks report CPU time rather than only wall time: on a shared two-core machine CPU
// per operation stays comparable when other work runs, latencies do not. These helpers
// measure this process and the database servers it started, which run on this machine.

// ticksPerSecond is the unit of /proc/PID/stat's times (USER_HZ, 100 on Linux).
const ticksPerSecond = 100

// ProcStat is what /proc/PID/stat says of a process (Linux).
type ProcStat struct {
	Parent int
	// CPU is the process's own user and system time; ChildrenCPU that of the children
	// it has reaped.
	CPU, ChildrenCPU time.Duration
	// MinorFaults is the page faults the process took that needed no disk. They are
	// costly on virtual machines, so a process that grows its heap by tens of megabytes
	// spends a visible part of its CPU time in them.
	MinorFaults int64
}

// ReadProcStat reads /proc/PID/stat; it fails where /proc does not exist or the process
// has gone.
func ReadProcStat(pid int) (ProcStat, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ProcStat{}, err
	}
	// The command name, in parentheses, may hold spaces: fields are counted after it,
	// [0] the state, [1] the parent, [7] minflt, [11] utime, [12] stime, [13] cutime,
	// [14] cstime.
	end := bytes.LastIndexByte(raw, ')')
	if end < 0 {
		return ProcStat{}, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(raw[end+1:])
	if len(f) < 15 {
		return ProcStat{}, fmt.Errorf("/proc/%d/stat: %d fields after the command name", pid, len(f))
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(string(f[i]), 10, 64); return v }
	ticks := func(a, b int) time.Duration { return time.Duration(n(a)+n(b)) * time.Second / ticksPerSecond }
	return ProcStat{Parent: int(n(1)), CPU: ticks(11, 12), ChildrenCPU: ticks(13, 14), MinorFaults: n(7)}, nil
}

// LiveProcesses reads the stat of every process now running; those that exit meanwhile
// are left out.
func LiveProcesses() map[int]ProcStat {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	out := make(map[int]ProcStat, len(paths))
	for _, p := range paths {
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if err != nil {
			continue
		}
		if st, err := ReadProcStat(pid); err == nil {
			out[pid] = st
		}
	}
	return out
}
