//go:build !unix

package storagetest

import "time"

// ProcessCPU is not measured on this system: it reports 0.
func ProcessCPU() time.Duration { return 0 }

// ProcessFaults is not measured on this system: it reports 0.
func ProcessFaults() int64 { return 0 }
