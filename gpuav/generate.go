package gpuav

//go:generate go run ./internal/genlib -src shaders/library.comp -o library_gen.go
