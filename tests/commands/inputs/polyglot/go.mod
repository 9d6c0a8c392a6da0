module example.com/worker

go 1.22

require (
	github.com/spf13/cobra v1.8.0
	golang.org/x/sync v0.6.0
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
)

require github.com/stretchr/testify v1.9.0
