package record

// Snapshot is what a devnet snapshot keeps besides the copies of the
// chain's buckets (each with its sequence): the wall clock's time when it
// was taken (Unix seconds), so that a revert can give back the chain
// clock's reading, and the names of the buckets copied.
type Snapshot struct {
	Wall    int64
	Buckets []string
}

// Bytes encodes s.
func (s *Snapshot) Bytes() []byte {
	w := make(writer, 0, 16+len(s.Buckets)*16)
	w.u64(uint64(s.Wall))
	w.strs(s.Buckets)
	return w
}

// ParseSnapshot decodes a Snapshot.
func ParseSnapshot(b []byte) (*Snapshot, error) {
	r := newReader("snapshot", b)
	s := &Snapshot{Wall: int64(r.u64("wall")), Buckets: r.strs("buckets")}
	return s, r.end()
}
