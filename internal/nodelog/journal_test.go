package nodelog

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJournalArgs(t *testing.T) {
	since := time.Date(2026, 11, 22, 7, 8, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		name string
		j    Journal
		want string
	}{
		{"defaults", Journal{}, "--no-pager --output=json --all --unit=kubelet --unit=containerd --unit=crio"},
		{"k3s, a window, zone said", Journal{Units: []string{"k3s"}, Since: since, Until: since.Add(time.Hour)},
			"--no-pager --output=json --all --unit=k3s --since=2026-11-22 06:08:00 UTC --until=2026-11-22 07:08:00 UTC"},
		{"follow", Journal{Follow: true}, "--no-pager --output=json --all --unit=kubelet --unit=containerd --unit=crio --follow"},
	}
	for _, tt := range tests {
		if got := strings.Join(tt.j.Args(), " "); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// script writes an executable shell script standing in for journalctl.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "journalctl")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestJournalRead(t *testing.T) {
	const entry = `{"__REALTIME_TIMESTAMP":"1795327680000000","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"I1122 06:08:00.000000 1 kubelet.go:1] \"SyncLoop ADD\""}`
	tests := []struct {
		name    string
		command string // a path, or a script body when it starts with "#"
		want    string // what is read
		wantErr []string
	}{
		{"journalctl absent", "/nonexistent/journalctl", "", []string{"/nonexistent/journalctl not found", "--journal reads systemd's journal on the node itself", "--node NAME"}},
		{"entries, and its arguments", "# echo '" + entry + "'; echo \"$*\" >&2", entry + "\n", nil},
		{"fails", "# echo 'Failed to parse timestamp: tomorrow' >&2; exit 1", "", []string{"exit status 1", "Failed to parse timestamp: tomorrow"}},
		{"fails after entries", "# echo '" + entry + "'; echo 'Error was encountered while opening journal files: Input/output error' >&2; exit 1", entry + "\n", []string{"Input/output error"}},
		{"nothing (no journal, no such unit)", "# echo 'No journal files were found.' >&2; exit 0", "", []string{"no entries of the units kubelet, containerd, crio", "No journal files were found.", "--unit k3s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := tt.command
			if strings.HasPrefix(cmd, "#") {
				cmd = script(t, strings.TrimPrefix(cmd, "#"))
			}
			rc, err := Journal{Command: cmd}.Open(context.Background())
			var b []byte
			if err == nil {
				b, err = io.ReadAll(rc)
				rc.Close()
			}
			if string(b) != tt.want {
				t.Errorf("read %q, want %q", b, tt.want)
			}
			if len(tt.wantErr) == 0 && err != nil {
				t.Errorf("err = %v", err)
			}
			if len(tt.wantErr) > 0 && err == nil {
				t.Fatalf("no error, want one with %q", tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestJournalFollowCloses(t *testing.T) {
	// journalctl -f never ends: closing the reader stops it.
	cmd := script(t, "echo one; exec sleep 60\n")
	rc, err := Journal{Command: cmd, Follow: true}.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if n, err := io.ReadFull(rc, buf); n != 4 || err != nil || string(buf) != "one\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	done := make(chan struct{})
	go func() { rc.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop journalctl -f")
	}
}
