package gpuav

// Check is one check a user switches on and off.
type Check struct {
	// ID is the check's stable name, as settings, reports and the TUI
	// spell it.
	ID string
	// pass adds the check to shaders; checks may share one.
	pass *passSpec
}

// Checks is the check registry, in the order users see the checks.
var Checks = []Check{
	{ID: CheckDescriptorIndexOOB, pass: descriptorIndexPass},
	{ID: CheckDescriptorUninit, pass: descriptorIndexPass},
	{ID: CheckDescriptorDestroyed, pass: descriptorIndexPass},
	{ID: CheckBufferOOB, pass: bufferOOBPass},
	{ID: CheckTexelBufferOOB, pass: texelBufferPass},
	{ID: CheckBDAOOB, pass: bdaPass},
	{ID: CheckRayQuery, pass: rayQueryPass},
}
