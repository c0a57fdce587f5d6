package wire

import (
	"encoding/binary"
	"fmt"
)

// KindPrintf carries debugPrintfEXT lines (Printf). 20: the layer's kinds
// after 10 are being taken by other messages as this one is added.
const KindPrintf Kind = 20

// MaxPrintfArgs bounds the argument words of one printf line.
const MaxPrintfArgs = 1024

// Printf carries the printf lines of one command buffer of one submit,
// grouped by call site and action; a submit with many lines may come in
// several messages.
type Printf struct {
	Submit        uint64 `json:"submit"`
	Queue         uint64 `json:"queue"`
	CommandBuffer uint64 `json:"command_buffer"`
	// CommandBufferSerial, Primary, PrimarySerial and PrimaryAction are
	// as in Errors: the command buffer's serial, a secondary command
	// buffer's primary and its actions before vkCmdExecuteCommands.
	CommandBufferSerial uint64       `json:"command_buffer_serial,omitempty"`
	Primary             uint64       `json:"primary,omitempty"`
	PrimarySerial       uint64       `json:"primary_serial,omitempty"`
	PrimaryAction       uint32       `json:"primary_action,omitempty"`
	Sites               []PrintfSite `json:"sites"`
	// Lost counts the lines the printf buffer had no room for.
	Lost uint64 `json:"lost,omitempty"`
}

// PrintfSite is the lines one call site (a DebugPrintf instruction of the
// original module) printed in one action.
type PrintfSite struct {
	ActionIndex uint32 `json:"action_index"`
	Action      string `json:"action"`
	Pipeline    uint64 `json:"pipeline"`
	// PipelineSerial is as in Record.
	PipelineSerial uint64   `json:"pipeline_serial,omitempty"`
	Labels         []string `json:"labels,omitempty"`
	ShaderID       uint32   `json:"shader_id"`
	Instruction    uint32   `json:"instruction"`
	Stage          uint32   `json:"stage"` // SPIR-V ExecutionModel
	// Args is the number of argument words of each line.
	Args uint32 `json:"args"`
	// Lines holds the lines, each its three stage words then Args
	// argument words, as little-endian uint32s.
	Lines []byte `json:"lines"`
}

// stride is the bytes of one line.
func (s *PrintfSite) stride() int { return 4 * (3 + int(s.Args)) }

// Check says what is wrong with a site's lines: too many arguments, or
// bytes that are not a whole number of lines.
func (s *PrintfSite) Check() error {
	if s.Args > MaxPrintfArgs {
		return fmt.Errorf("printf site: %d argument words (max %d)", s.Args, MaxPrintfArgs)
	}
	if len(s.Lines)%s.stride() != 0 {
		return fmt.Errorf("printf site: %d bytes of lines of %d bytes each", len(s.Lines), s.stride())
	}
	return nil
}

// Count is the number of lines (of a site that passed Check).
func (s *PrintfSite) Count() int { return len(s.Lines) / s.stride() }

// Line decodes line i into its stage words and args (len Args).
func (s *PrintfSite) Line(i int, args []uint32) (stage [3]uint32) {
	b := s.Lines[i*s.stride():]
	for k := range stage {
		stage[k] = binary.LittleEndian.Uint32(b[4*k:])
	}
	b = b[12:]
	for k := range args {
		args[k] = binary.LittleEndian.Uint32(b[4*k:])
	}
	return stage
}

// AppendLine appends one line (stage words, then the args) to a site.
func (s *PrintfSite) AppendLine(stage [3]uint32, args []uint32) {
	for _, w := range stage {
		s.Lines = binary.LittleEndian.AppendUint32(s.Lines, w)
	}
	for _, w := range args {
		s.Lines = binary.LittleEndian.AppendUint32(s.Lines, w)
	}
}
