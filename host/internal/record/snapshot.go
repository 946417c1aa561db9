package record

// Snapshot is a devnet snapshot: the wall clock's time when it was taken
// (Unix seconds), so that a revert can give back the chain clock's
// reading, and its mark in the undo log (Undo), the log's position then:
// the entries after it undo everything written since.
type Snapshot struct {
	Wall int64
	Mark uint64
}

// Bytes encodes s.
func (s *Snapshot) Bytes() []byte {
	w := make(writer, 0, 16)
	w.u64(uint64(s.Wall))
	w.u64(s.Mark)
	return w
}

// ParseSnapshot decodes a Snapshot.
func ParseSnapshot(b []byte) (*Snapshot, error) {
	r := newReader("snapshot", b)
	s := &Snapshot{Wall: int64(r.u64("wall")), Mark: r.u64("mark")}
	return s, r.end()
}

// SnapshotV1 is a snapshot of store formats 7 and older, which copied
// every bucket of the chain (each with its sequence) into buckets of its
// own: the wall clock's time when it was taken, and the names of the
// buckets copied.
type SnapshotV1 struct {
	Wall    int64
	Buckets []string
}

// Bytes encodes s.
func (s *SnapshotV1) Bytes() []byte {
	w := make(writer, 0, 16+len(s.Buckets)*16)
	w.u64(uint64(s.Wall))
	w.strs(s.Buckets)
	return w
}

// ParseSnapshotV1 decodes a SnapshotV1.
func ParseSnapshotV1(b []byte) (*SnapshotV1, error) {
	r := newReader("snapshot of format 7", b)
	s := &SnapshotV1{Wall: int64(r.u64("wall")), Buckets: r.strs("buckets")}
	return s, r.end()
}
