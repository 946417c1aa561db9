package record

import "fmt"

// UndoKind says what an undo log entry gives back.
type UndoKind byte

// The kinds of undo log entries.
const (
	UndoAbsent   UndoKind = iota // the key was absent: undoing deletes it
	UndoValue                    // the key held Value: undoing puts it back
	UndoSequence                 // the bucket's sequence was Seq: undoing sets it
)

// Undo is an entry of an undo log: what a key of a bucket held, or the
// bucket's sequence, before a write changed it.
type Undo struct {
	Kind   UndoKind
	Bucket string
	Key    []byte // UndoAbsent, UndoValue
	Value  []byte // UndoValue
	Seq    uint64 // UndoSequence
}

// Bytes encodes u: its kind, the bucket's name, then the key and the
// value, or the sequence.
func (u *Undo) Bytes() []byte {
	w := make(writer, 0, 4+len(u.Bucket)+len(u.Key)+len(u.Value))
	w.u8(byte(u.Kind))
	w.str(u.Bucket)
	switch u.Kind {
	case UndoSequence:
		w.u64(u.Seq)
	case UndoValue:
		w.bytes(u.Key)
		w.bytes(u.Value)
	default:
		w.bytes(u.Key)
	}
	return w
}

// ParseUndo decodes an Undo.
func ParseUndo(b []byte) (*Undo, error) {
	r := newReader("undo entry", b)
	u := &Undo{Kind: UndoKind(r.u8("kind")), Bucket: r.str("bucket")}
	switch u.Kind {
	case UndoSequence:
		u.Seq = r.u64("sequence")
	case UndoValue:
		u.Key = r.bytes("key")
		u.Value = r.bytes("value")
	case UndoAbsent:
		u.Key = r.bytes("key")
	default:
		r.fail("kind %d", u.Kind)
	}
	if r.err == nil && u.Bucket == "" {
		r.fail("no bucket")
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return u, nil
}

// String describes u, for errors and tests.
func (u *Undo) String() string {
	switch u.Kind {
	case UndoSequence:
		return fmt.Sprintf("%s sequence %d", u.Bucket, u.Seq)
	case UndoValue:
		return fmt.Sprintf("%s %x=%x", u.Bucket, u.Key, u.Value)
	}
	return fmt.Sprintf("%s %x absent", u.Bucket, u.Key)
}
