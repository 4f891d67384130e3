package clickhouse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// errSpoolFull is returned by put when a batch would take the spool past its bound.
var errSpoolFull = errors.New("usage spool full")

// errCorrupt marks a spool file that cannot be read back.
var errCorrupt = errors.New("corrupt usage spool file")

// spool keeps batches on disk, one file per batch, oldest first, within a size bound.
//
// A file is named <sequence>-<events>.batch so that the directory listing alone restores the
// order and the counts after a restart. It is written to a temporary name, synced and
// renamed, so a crash leaves either a whole file or a *.tmp that the next open removes.
// Its first line is a header carrying a CRC-32 of the body; a file that fails to decode is
// moved to quarantine/ for a human to look at, and never stops delivery of the others.
//
// One spool directory belongs to one process: an exclusive lock on its lock file makes a
// second process sharing the directory fail at start instead of delivering batches twice.
type spool struct {
	dir      string
	maxBytes int64
	logger   *slog.Logger
	lock     *os.File

	mu          sync.Mutex
	entries     []spoolEntry // ascending sequence
	bytes       int64
	events      int
	nextSeq     uint64
	quarantined int64
}

type spoolEntry struct {
	name   string
	seq    uint64
	events int
	size   int64
}

const (
	spoolExt      = ".batch"
	spoolMagic    = "stockroom-usage-spool v1"
	quarantineDir = "quarantine"
)

func openSpool(dir string, maxBytes int64, logger *slog.Logger) (*spool, error) {
	if err := os.MkdirAll(filepath.Join(dir, quarantineDir), 0o755); err != nil {
		return nil, fmt.Errorf("usage spool %s: %w", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s := &spool{dir: dir, maxBytes: maxBytes, logger: logger, nextSeq: 1, lock: lock}
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("usage spool %s: %w", dir, err)
	}
	for _, f := range files {
		name := f.Name()
		switch {
		case f.IsDir(), name == lockFile:
			continue
		case strings.HasSuffix(name, ".tmp"):
			// A write interrupted before its rename: the batch was never acknowledged as
			// spooled, and its events are counted as lost by the run that crashed.
			_ = os.Remove(filepath.Join(dir, name))
			continue
		}
		e, ok := parseSpoolName(name)
		info, err := f.Info()
		if !ok || err != nil {
			s.quarantine(name, "unrecognised file name")
			continue
		}
		e.size = info.Size()
		s.entries = append(s.entries, e)
		s.bytes += e.size
		s.events += e.events
		s.nextSeq = max(s.nextSeq, e.seq+1)
	}
	sort.Slice(s.entries, func(i, j int) bool { return s.entries[i].seq < s.entries[j].seq })
	return s, nil
}

const lockFile = ".lock"

func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("usage spool %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("usage spool %s is in use by another process (give each process its own usage.spool_dir): %w", dir, err)
	}
	return f, nil
}

// release gives the directory up for the next process.
func (s *spool) release() { s.lock.Close() }

func parseSpoolName(name string) (spoolEntry, bool) {
	base, ok := strings.CutSuffix(name, spoolExt)
	if !ok {
		return spoolEntry{}, false
	}
	seqText, eventsText, ok := strings.Cut(base, "-")
	if !ok {
		return spoolEntry{}, false
	}
	seq, err1 := strconv.ParseUint(seqText, 10, 64)
	events, err2 := strconv.Atoi(eventsText)
	if err1 != nil || err2 != nil || events < 0 {
		return spoolEntry{}, false
	}
	return spoolEntry{name: name, seq: seq, events: events}, true
}

// put writes b as the newest file, or returns errSpoolFull without writing anything.
func (s *spool) put(b *batch) error {
	body, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("encode usage batch %s: %w", b.ID, err)
	}
	header := fmt.Sprintf("%s %08x\n", spoolMagic, crc32.ChecksumIEEE(body))
	size := int64(len(header) + len(body))

	// Holding the lock across the write keeps sequence numbers and the size bound exact;
	// only the collector and the delivery loop contend for it.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bytes+size > s.maxBytes {
		return errSpoolFull
	}
	e := spoolEntry{name: fmt.Sprintf("%020d-%d%s", s.nextSeq, len(b.Rows), spoolExt), seq: s.nextSeq, events: len(b.Rows), size: size}
	if err := writeFileAtomic(filepath.Join(s.dir, e.name), []byte(header), body); err != nil {
		return fmt.Errorf("spool usage batch %s: %w", b.ID, err)
	}
	s.nextSeq++
	s.entries = append(s.entries, e)
	s.bytes += size
	s.events += e.events
	return nil
}

func writeFileAtomic(path string, parts ...[]byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// oldest returns the first entry in delivery order.
func (s *spool) oldest() (spoolEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) == 0 {
		return spoolEntry{}, false
	}
	return s.entries[0], true
}

// load reads e back; an unreadable file yields an error wrapping errCorrupt.
func (s *spool) load(e spoolEntry) (*batch, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, e.name))
	if err != nil {
		return nil, fmt.Errorf("read usage spool %s: %w", e.name, err)
	}
	header, body, ok := bytes.Cut(data, []byte("\n"))
	var sum uint32
	if !ok || !bytes.HasPrefix(header, []byte(spoolMagic+" ")) {
		return nil, fmt.Errorf("%w %s: bad header", errCorrupt, e.name)
	}
	if _, err := fmt.Sscanf(string(header[len(spoolMagic)+1:]), "%08x", &sum); err != nil || sum != crc32.ChecksumIEEE(body) {
		return nil, fmt.Errorf("%w %s: checksum mismatch", errCorrupt, e.name)
	}
	var b batch
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("%w %s: %v", errCorrupt, e.name, err)
	}
	if b.ID == "" || len(b.Rows) != e.events {
		return nil, fmt.Errorf("%w %s: %d rows, name says %d", errCorrupt, e.name, len(b.Rows), e.events)
	}
	return &b, nil
}

// remove forgets e once its batch is in ClickHouse.
func (s *spool) remove(e spoolEntry) error {
	if err := os.Remove(filepath.Join(s.dir, e.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove usage spool %s: %w", e.name, err)
	}
	s.forget(e)
	return nil
}

// setAside moves e to quarantine/ and forgets it.
func (s *spool) setAside(e spoolEntry, reason string) {
	s.quarantine(e.name, reason)
	s.forget(e)
}

func (s *spool) quarantine(name, reason string) {
	s.logger.Error("usage spool file quarantined; its events are not delivered",
		"file", filepath.Join(s.dir, name), "reason", reason)
	if err := os.Rename(filepath.Join(s.dir, name), filepath.Join(s.dir, quarantineDir, name)); err != nil {
		s.logger.Error("usage spool: cannot quarantine file", "file", name, "err", err)
	}
	s.mu.Lock()
	s.quarantined++
	s.mu.Unlock()
}

func (s *spool) forget(e spoolEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.entries {
		if x.seq == e.seq {
			s.entries = append(s.entries[:i], s.entries[i+1:]...)
			s.bytes -= x.size
			s.events -= x.events
			return
		}
	}
}

// spoolStats is a snapshot of the spool's contents.
type spoolStats struct {
	batches, events int
	bytes           int64
	quarantined     int64
}

func (s *spool) stats() spoolStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return spoolStats{batches: len(s.entries), events: s.events, bytes: s.bytes, quarantined: s.quarantined}
}

func (s *spool) empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries) == 0
}
