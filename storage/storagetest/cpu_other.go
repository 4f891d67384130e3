//go:build !unix

package storagetest

import "time"

// ProcessCPU is not measured on this system: it reports 0.
func ProcessCPU() time.Duration { return 0 }
