package sourcemap

// index is replaced by the real implementation (work in progress).
type index struct{}

func buildIndex(words []uint32) *index            { return &index{} }
func (ix *index) lookup(instruction int) Location { return Location{Note: "no debug information"} }
func (ix *index) fileLines(file string) []string  { return nil }
