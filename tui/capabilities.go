package tui

import (
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/settings"
)

// availability says which checks the session's device can run, from the
// launcher's capability probe (session.Capabilities); a check the probe
// does not know, or a session without a probe, counts as available.
func availability(s *session.Session) settings.Availability {
	if s == nil || s.Capabilities == nil {
		return nil
	}
	caps := s.Capabilities
	return func(id string) (bool, string) {
		cs, known := caps.Check(id)
		if !known || cs.Available {
			return true, ""
		}
		return false, cs.Reason
	}
}
