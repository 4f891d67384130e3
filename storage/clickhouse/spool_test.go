package clickhouse

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSpoolKeepsOrderAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := openSpool(dir, 1<<20, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range []int{3, 1, 2} {
		b := batchesByDay(calls("org-a", "/v2/crawl", n, time.Now()))[0]
		ids = append(ids, b.ID)
		if err := s.put(b); err != nil {
			t.Fatal(err)
		}
	}
	// A write interrupted before its rename leaves a temporary file, which is not a batch.
	if err := os.WriteFile(filepath.Join(dir, "00000000000000000009-1.batch.tmp"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}

	before := s.stats()
	s.release()
	reopened, err := openSpool(dir, 1<<20, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.release()
	if a, b := before, reopened.stats(); a != b || a.batches != 3 || a.events != 6 {
		t.Fatalf("before reopen %+v, after %+v", a, b)
	}
	for _, want := range ids {
		e, ok := reopened.oldest()
		if !ok {
			t.Fatal("spool empty too soon")
		}
		b, err := reopened.load(e)
		if err != nil {
			t.Fatal(err)
		}
		if b.ID != want {
			t.Errorf("got batch %s, want %s (order lost)", b.ID, want)
		}
		if err := reopened.remove(e); err != nil {
			t.Fatal(err)
		}
	}
	if st := reopened.stats(); st.batches != 0 || st.bytes != 0 {
		t.Errorf("after removing everything: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "00000000000000000009-1.batch.tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file left behind: %v", err)
	}
}

func TestSpoolDetectsCorruption(t *testing.T) {
	dir := t.TempDir()
	s, err := openSpool(dir, 1<<20, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.put(batchesByDay(calls("org-a", "/v2/crawl", 5, time.Now()))[0]); err != nil {
		t.Fatal(err)
	}
	e, _ := s.oldest()
	path := filepath.Join(dir, e.name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-10] ^= 0x01 // one flipped bit: only the checksum can tell
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.load(e); !errors.Is(err, errCorrupt) {
		t.Errorf("load of a damaged file: %v, want errCorrupt", err)
	}
}

func TestSpoolDirectoryBelongsToOneProcessAtATime(t *testing.T) {
	dir := t.TempDir()
	first, err := openSpool(dir, 1<<20, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openSpool(dir, 1<<20, quietLogger()); err == nil {
		t.Fatal("a second spool opened the same directory")
	}
	first.release()
	second, err := openSpool(dir, 1<<20, quietLogger())
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	second.release()
}
