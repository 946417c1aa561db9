// Package bitmap provides compressed sets of unsigned integers.
//
// It provides compressed sets of unsigned integers, the posting lists of an
// index: which documents (by ordinal) hold a value.
//
// The scheme is that of Roaring bitmaps (S. Chambi, D. Lemire, O. Kaser,
// R. Godin, "Better bitmap performance with Roaring bitmaps", Software:
// Practice and Experience 46(5), 2016; D. Lemire et al., "Consistently
// faster and smaller compressed bitmaps with Roaring", SPE 46(11), 2016):
// a set is cut into chunks of 2^16 values by their high bits, and each
// chunk's low 16 bits are kept in a Container, a sorted array of uint16
// while it holds at most ArrayMax values (at most 8 KiB) and a bitset of
// 2^16 bits (8 KiB) beyond. Intersections, unions and counts then cost per
// container, a word of 64 values at a time where the containers are dense,
// rather than per member: a Bitmap's And, Or, Len and Page.
//
// A Container is stored on its own (Encode, Decode), so that a store keeps
// one per (list, chunk) and rewrites only the chunks a change touches.
package bitmap
