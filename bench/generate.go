package main

//go:generate go run ./internal/gencorpus -o corpus
