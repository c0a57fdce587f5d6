// Command genlarge prints the large benchmark compute shader of
// gpuav/internal/largeshader: `go run ./gpuav/internal/genlarge -n 40`.
package main

import (
	"flag"
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav/internal/largeshader"
)

func main() {
	n := flag.Int("n", 40, "number of helper functions")
	flag.Parse()
	fmt.Print(largeshader.Source(*n))
}
