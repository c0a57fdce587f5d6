package vulkaninfo

import "testing"

const sample = `Vulkan Instance Version: 1.3.239
Layers: count = 1
VK_LAYER_KHRONOS_validation (Khronos Validation Layer) Vulkan version 1.3.239, layer version 1:
	deviceName = not a gpu section
GPU0:
VkPhysicalDeviceProperties:
	apiVersion        = 1.4.305 (4210993)
	deviceName        = llvmpipe (LLVM 15.0.6, 256 bits)
	maxBoundDescriptorSets = 8
	robustBufferAccess = true
	robustBufferAccess = false
	shaderInt64 = false
GPU1:
	deviceName = second
	vendorID = 0x10de
`

func TestParse(t *testing.T) {
	gpus := Parse(sample)
	if len(gpus) != 2 {
		t.Fatalf("%d gpus", len(gpus))
	}
	g := gpus[0]
	if g.Values["deviceName"] != "llvmpipe (LLVM 15.0.6, 256 bits)" {
		t.Errorf("deviceName %q", g.Values["deviceName"])
	}
	if v, err := g.Uint("apiVersion"); err != nil || v != 4210993 {
		t.Errorf("apiVersion %d %v", v, err)
	}
	if v, err := g.Uint("maxBoundDescriptorSets"); err != nil || v != 8 {
		t.Errorf("maxBoundDescriptorSets %d %v", v, err)
	}
	if v, ok := g.Bool("robustBufferAccess"); !ok || !v {
		t.Errorf("robustBufferAccess %v %v (the first occurrence wins)", v, ok)
	}
	if v, ok := g.Bool("shaderInt64"); !ok || v {
		t.Errorf("shaderInt64 %v %v", v, ok)
	}
	if _, ok := g.Bool("deviceName"); ok {
		t.Error("a string read as a bool")
	}
	if _, err := g.Uint("absent"); err == nil {
		t.Error("absent value read")
	}
	if v, err := gpus[1].Uint("vendorID"); err != nil || v != 0x10de || gpus[1].Values["deviceName"] != "second" {
		t.Errorf("gpu1 %v %d %v", gpus[1].Values, v, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range Parse(s) {
			for k := range g.Values {
				g.Bool(k)
				_, _ = g.Uint(k)
			}
		}
	})
}
