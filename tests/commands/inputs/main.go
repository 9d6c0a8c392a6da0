// Package main runs the worker.
package main

import (
	"fmt"
	"os"
)

// Worker processes jobs.
type Worker struct {
	ID   int
	Name string
}

// Run starts the worker.
func (w *Worker) Run(jobs []string) error {
	for _, j := range jobs {
		fmt.Println("job", j) // progress
	}
	return nil
}

func main() {
	w := &Worker{ID: 1, Name: "w1"}
	if err := w.Run(os.Args[1:]); err != nil {
		os.Exit(1)
	}
}
