"""The Go family: go test/build/vet and golangci-lint."""
