package localdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"text/template"

	"github.com/ClickHouse/clickhouse-go/v2"
)

// ClickHouseOptions configure StartClickHouse. The zero value is usable.
type ClickHouseOptions struct {
	// Binary is the clickhouse-server executable. Default: clickhouse-server on PATH, else
	// /usr/sbin/clickhouse-server, else `clickhouse` (the single-binary distribution).
	Binary string
	// Database is created when missing. Default "stockroom".
	Database string
}

// The configuration keeps to settings that ClickHouse 18.16 (Debian's) and current releases
// both accept: users are declared inline, so no users.xml beside it is needed.
var clickhouseConfig = template.Must(template.New("config").Parse(`<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>{{.Dir}}/clickhouse-server.log</log>
    <errorlog>{{.Dir}}/clickhouse-server.err.log</errorlog>
    <size>10M</size>
    <count>2</count>
  </logger>
  <tcp_port>{{.Port}}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>{{.Dir}}/data/</path>
  <tmp_path>{{.Dir}}/data/tmp/</tmp_path>
  <user_files_path>{{.Dir}}/data/user_files/</user_files_path>
  <format_schema_path>{{.Dir}}/data/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>200</max_concurrent_queries>
  <timezone>UTC</timezone>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <profiles><default></default></profiles>
  <quotas><default></default></quotas>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
</yandex>
`))

// StartClickHouse starts a ClickHouse server with its data in dir on a loopback port.
func StartClickHouse(ctx context.Context, dir string, opts ClickHouseOptions, logger *slog.Logger) (*Server, error) {
	if opts.Database == "" {
		opts.Database = "stockroom"
	}
	bin, args, err := clickhouseCommand(opts.Binary)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	s := &Server{Name: "clickhouse", Dir: dir, stopSig: syscall.SIGTERM, logger: logger}
	pidFile := filepath.Join(dir, "clickhouse.pid")
	ready := func(p int) func(context.Context) error {
		return func(ctx context.Context) error { return ensureClickHouseDatabase(ctx, p, opts.Database) }
	}

	if p := rememberedPort(dir); p > 0 && pidAlive(pidFile) {
		s.URL, s.external = clickhouseURL(p, opts.Database), true
		logger.Info("reusing running clickhouse", "dir", dir, "port", p)
		return s, s.waitReady(ctx, ready(p))
	}
	p, err := port(dir)
	if err != nil {
		return nil, err
	}
	configPath := filepath.Join(dir, "config.xml")
	f, err := os.Create(configPath)
	if err != nil {
		return nil, fmt.Errorf("write clickhouse config: %w", err)
	}
	err = clickhouseConfig.Execute(f, struct {
		Dir  string
		Port int
	}{dir, p})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("write clickhouse config: %w", err)
	}
	os.Remove(pidFile)
	args = append(args, "--config-file="+configPath, "--pid-file="+pidFile)
	cmd := exec.CommandContext(context.WithoutCancel(ctx), bin, args...)
	cmd.Dir = dir
	if err := s.start(cmd); err != nil {
		return nil, err
	}
	s.URL = clickhouseURL(p, opts.Database)
	logger.Info("clickhouse starting", "dir", dir, "port", p)
	if err := s.waitReady(ctx, ready(p)); err != nil {
		_ = s.Stop(context.WithoutCancel(ctx))
		return nil, err
	}
	return s, nil
}

func clickhouseURL(port int, database string) string {
	return "clickhouse://127.0.0.1:" + strconv.Itoa(port) + "/" + database
}

func ensureClickHouseDatabase(ctx context.Context, port int, database string) error {
	conn, err := clickhouse.Open(&clickhouse.Options{Addr: []string{"127.0.0.1:" + strconv.Itoa(port)}})
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS `"+database+"`")
}

func clickhouseCommand(configured string) (string, []string, error) {
	if configured != "" {
		return configured, nil, nil
	}
	if p, err := exec.LookPath("clickhouse-server"); err == nil {
		return p, nil, nil
	}
	if _, err := os.Stat("/usr/sbin/clickhouse-server"); err == nil {
		return "/usr/sbin/clickhouse-server", nil, nil
	}
	if p, err := exec.LookPath("clickhouse"); err == nil {
		return p, []string{"server"}, nil
	}
	return "", nil, errors.New("clickhouse-server not found (install clickhouse-server, or set CLICKHOUSE_URL)")
}
