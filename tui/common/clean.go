package common

import "github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"

// Clean makes text from the app (debug names, labels, file names, source
// lines, output, notices) safe to draw: a control character — an escape
// that could move the cursor, retitle the window or write the clipboard, a
// C1 control, DEL — becomes its visible Control Pictures symbol (ESC shows
// as ␛), a tab a space, a bidirectional override (which can make code read
// differently from what runs) or an invalid byte U+FFFD. Text with none of
// these is returned as it is, without copying. It is sanitize.Pictures:
// what is unsafe is defined once, for every output.
func Clean(s string) string { return sanitize.Pictures(s) }
