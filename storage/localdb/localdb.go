// Package localdb runs private Postgres and ClickHouse servers under a project folder.
//
// It is what `make run` and the test harness use on a machine where DATABASE_URL and
// CLICKHOUSE_URL point nowhere: each server keeps its data and its port in its own folder,
// so a second start reuses both. Servers are started in their own process group and are
// told to stop when the process that started them dies, so nothing is left running.
package localdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Server is one database server process started by this package.
type Server struct {
	// Name is "postgres" or "clickhouse", for logs and errors.
	Name string
	// URL is the connection URL clients use.
	URL string
	// Dir is the folder that holds the server's data, configuration and logs.
	Dir string

	cmd      *exec.Cmd
	stopSig  syscall.Signal
	exited   chan struct{}
	exitErr  error
	logger   *slog.Logger
	logFile  *os.File
	external bool // true when the server was already running and is not ours to stop
}

// Stop asks the server to shut down and waits for it, killing it when ctx ends first.
// A server this package found already running is left alone.
func (s *Server) Stop(ctx context.Context) error {
	if s == nil || s.external || s.cmd == nil {
		return nil
	}
	select {
	case <-s.exited:
		return nil
	default:
	}
	if err := s.cmd.Process.Signal(s.stopSig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stop %s: %w", s.Name, err)
	}
	select {
	case <-s.exited:
		s.logger.Info("database server stopped", "server", s.Name)
		return nil
	case <-ctx.Done():
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.exited
		return fmt.Errorf("stop %s: %w", s.Name, ctx.Err())
	}
}

// start launches cmd in its own process group, logging to dir/server.log, and watches it.
func (s *Server) start(cmd *exec.Cmd) error {
	logFile, err := os.OpenFile(filepath.Join(s.Dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s log: %w", s.Name, err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// Own process group: a Ctrl-C aimed at `make run` must not kill the databases before
	// the API has drained. Pdeathsig: a killed parent must not leave servers behind.
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = s.stopSig
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("start %s: %w", s.Name, err)
	}
	s.cmd, s.logFile, s.exited = cmd, logFile, make(chan struct{})
	go func() {
		s.exitErr = cmd.Wait()
		logFile.Close()
		close(s.exited)
	}()
	return nil
}

// waitReady polls ready until it succeeds, the process exits, or ctx ends.
func (s *Server) waitReady(ctx context.Context, ready func(context.Context) error) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var lastErr error
	for {
		attemptCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		lastErr = ready(attemptCtx)
		cancel()
		if lastErr == nil {
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("%s exited while starting (%v); see %s", s.Name, s.exitErr, filepath.Join(s.Dir, "server.log"))
		case <-ctx.Done():
			return fmt.Errorf("%s not ready: %w (last error: %v)", s.Name, ctx.Err(), lastErr)
		case <-tick.C:
		}
	}
}

// port returns the port remembered in dir/port, or a free loopback port that it remembers.
// A remembered port is reused so that URLs printed by an earlier run stay true.
func port(dir string) (int, error) {
	path := filepath.Join(dir, "port")
	if b, err := os.ReadFile(path); err == nil {
		if p, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && p > 0 {
			if portFree(p) {
				return p, nil
			}
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	l.Close()
	if err := os.WriteFile(path, []byte(strconv.Itoa(p)+"\n"), 0o644); err != nil {
		return 0, fmt.Errorf("remember port: %w", err)
	}
	return p, nil
}

func portFree(p int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// rememberedPort reads dir/port without choosing a new one.
func rememberedPort(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "port"))
	if err != nil {
		return 0
	}
	p, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return p
}
