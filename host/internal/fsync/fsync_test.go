package fsync

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	dir := t.TempDir()
	if err := Dir(dir); err != nil {
		t.Errorf("Dir(%s): %v", dir, err)
	}
	missing := filepath.Join(dir, "missing")
	if err := Dir(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Dir(%s): %v, want a not-exist error", missing, err)
	}
}
