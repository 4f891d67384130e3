package webhook

import "time"

// Schedule is the wait before each retry of a delivery: Schedule[0] after the first
// attempt fails, Schedule[1] after the second, and so on. A delivery is attempted
// len(Schedule)+1 times at most.
type Schedule []time.Duration

// DefaultSchedule retries for a little more than a day, soon at first and then further
// apart, so that a receiver down for a deploy gets its events within seconds and one
// down overnight still gets them.
var DefaultSchedule = Schedule{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}

// Attempts is the most attempts a delivery gets.
func (s Schedule) Attempts() int { return len(s) + 1 }

// After returns the wait after failed attempt number attempt (1-based); ok is false once
// there is no retry left.
func (s Schedule) After(attempt int) (wait time.Duration, ok bool) {
	if attempt < 1 || attempt > len(s) {
		return 0, false
	}
	return s[attempt-1], true
}
