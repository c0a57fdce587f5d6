package gpuav

// The bda_oob check reads the device-address table at binding
// AddressBinding (layout in inputs.go): entries sorted by address,
// overlapping ranges merged by the layer. The shader compares 64-bit
// values as (low, high) pairs, so the check library needs no Int64.

// BDA access flags: word p3 of a CodeBDAOOB record.
const (
	// BDAWrite marks a store or an atomic that writes.
	BDAWrite = 1 << 0
	// BDAAtomic marks an atomic instruction.
	BDAAtomic = 1 << 1
	// BDAStruct marks a whole-struct load or store (the size is that of
	// the struct, though the source may use only some members).
	BDAStruct = 1 << 2
	// BDANearest says p4..p6 hold the nearest buffer below the address
	// (or the first buffer when none is below).
	BDANearest = 1 << 3
	// BDACoopMatrix marks a cooperative-matrix load or store: the size is
	// the bytes its rows or columns span (coopmat.go).
	BDACoopMatrix = 1 << 4
)
