package launcher

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// maxLine is the longest output line kept whole; longer ones are split.
const maxLine = 64 << 10

// lineWriter records the app's output line by line in the session and,
// when pass is set, passes the bytes through as they come.
type lineWriter struct {
	col    *session.Collector
	stream string
	pass   io.Writer
	mu     sync.Mutex
	buf    []byte
}

// Write records every complete line of p.
func (w *lineWriter) Write(p []byte) (int, error) {
	if w.pass != nil {
		_, _ = w.pass.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			if len(w.buf) >= maxLine {
				w.emit(w.buf[:maxLine])
				w.buf = w.buf[maxLine:]
				continue
			}
			break
		}
		w.emit(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

// Flush records a last line without a newline.
func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(w.buf)
		w.buf = nil
	}
}

func (w *lineWriter) emit(line []byte) {
	text := strings.TrimSuffix(string(line), "\r")
	_ = w.col.Record(wire.KindAppOutput, &wire.AppOutput{Stream: w.stream, Text: text})
}
