package redact

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The key of the masks' hash is never taken from the input: whoever holds
// the output holds most of the input too (parse --redact prints lines
// with their offsets, and the values masked in the first ones are
// guessable: 0.0.0.0, true), so a key derived from it can be rebuilt, and
// then every mask reversed by hashing guesses. It is a random secret the
// user keeps instead, or one a team shares.

// MinKeyBytes is the shortest key accepted from a user: a short one could
// be found by trying keys against a mask whose value is guessed.
const MinKeyBytes = 16

// KeyFileName is the key's file in podflow's configuration directory.
const KeyFileName = "redact.key"

// KeySource says where a key is to come from, in this order: Secret (the
// PODFLOW_REDACT_KEY variable), File (--redact-key-file or
// PODFLOW_REDACT_KEY_FILE), else the user's own key under ConfigDir
// (os.UserConfigDir), created on first use.
type KeySource struct {
	Secret    string
	File      string
	ConfigDir func() (string, error)
}

// LoadKey returns the key src names and where it came from (for
// messages). The user's own key file is created, readable by the user
// alone (0600, in a 0700 directory), when there is none yet: from then on
// every command on this machine masks a value alike.
func LoadKey(src KeySource) (key []byte, from string, err error) {
	switch {
	case src.Secret != "":
		if len(src.Secret) < MinKeyBytes {
			return nil, "", fmt.Errorf("PODFLOW_REDACT_KEY has %d bytes; a key needs at least %d (make one with: openssl rand -hex 32)", len(src.Secret), MinKeyBytes)
		}
		return deriveKey([]byte(src.Secret)), "PODFLOW_REDACT_KEY", nil
	case src.File != "":
		k, err := readKeyFile(src.File)
		if err != nil {
			return nil, "", err
		}
		return k, src.File, nil
	}
	if src.ConfigDir == nil {
		src.ConfigDir = os.UserConfigDir
	}
	dir, err := src.ConfigDir()
	if err != nil {
		return nil, "", fmt.Errorf("no configuration directory to keep the redaction key in: %w", err)
	}
	path := filepath.Join(dir, "podflow", KeyFileName)
	k, err := readKeyFile(path)
	if err == nil {
		return k, path, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	if err := createKeyFile(path); err != nil {
		return nil, "", err
	}
	k, err = readKeyFile(path)
	return k, path, err
}

// deriveKey turns a user's secret, of any length and alphabet, into the
// HMAC key.
func deriveKey(secret []byte) []byte {
	h := sha256.New()
	h.Write([]byte("podflow-redact-key-v2\x00"))
	h.Write(secret)
	return h.Sum(nil)
}

// readKeyFile reads a key file: its text, blanks around it trimmed.
func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("redaction key: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("redaction key %s: %w", path, err)
	}
	b = bytes.TrimSpace(b)
	if len(b) < MinKeyBytes {
		return nil, fmt.Errorf("redaction key %s has %d bytes; a key needs at least %d (make one with: openssl rand -hex 32 > %s)", path, len(b), MinKeyBytes, path)
	}
	return deriveKey(b), nil
}

// createKeyFile writes 256 random bits, in hex, to path, readable by the
// user alone. Two processes creating it at once agree: each writes its
// own temporary file and links it to path, and the one that finds path
// taken reads the other's.
func createKeyFile(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("redaction key: %w", err)
	}
	var raw [32]byte
	rand.Read(raw[:]) // (crypto/rand.Read never fails)
	tmp, err := os.CreateTemp(dir, ".redact.key-*")
	if err != nil {
		return fmt.Errorf("redaction key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("redaction key: %w", err)
	}
	_, werr := tmp.WriteString(hex.EncodeToString(raw[:]) + "\n")
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("redaction key %s: %w", tmp.Name(), err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("redaction key: %w", err)
	}
	return nil
}

// RandomKey is a key for one run alone (New's): masks that no other run
// can reproduce.
func RandomKey() []byte {
	var k [32]byte
	rand.Read(k[:]) // (crypto/rand.Read never fails)
	return k[:]
}
