package cmd

import (
	"testing"
)

func TestNewCmdTUI(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		speed   float64
		replay  bool
		follow  bool
		wantErr bool
	}{
		{name: "file", args: []string{"kubelet.log"}, speed: 20},
		{name: "replay speed", args: []string{"--replay", "--speed", "50x", "a.log"}, speed: 50, replay: true},
		{name: "follow stdin", args: []string{"-f", "-"}, speed: 20, follow: true},
		{name: "no input", args: []string{}, wantErr: true},
		{name: "speed without replay", args: []string{"--speed", "5x", "a.log"}, wantErr: true},
		{name: "bad speed", args: []string{"--replay", "--speed", "fast", "a.log"}, wantErr: true},
		{name: "bad color", args: []string{"--color", "pink", "a.log"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ioS, _, _, _ := NewTestIO(false)
			var got *TUIOptions
			c := NewCmdTUI(ioS, func(o *TUIOptions) error { got = o; return nil })
			c.SetArgs(tt.args)
			c.SilenceErrors, c.SilenceUsage = true, true
			err := c.Execute()
			if tt.wantErr {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.speed != tt.speed || got.Replay != tt.replay || got.Follow != tt.follow {
				t.Errorf("got speed %v replay %v follow %v", got.speed, got.Replay, got.Follow)
			}
		})
	}
}
