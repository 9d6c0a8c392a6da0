// Command tilecache renders map tiles with a pool of workers and logs progress
// (source of tests/logdata/go-panic.log). A tile with an empty layer list makes a
// worker index past the end of a slice: a real runtime panic with its goroutine trace.
package main

import (
	"fmt"
	"log"
	"os"
	"sync"
	"time"
)

type tile struct {
	z, x, y int
	layers  []string
}

func render(t tile) (int, error) {
	base := t.layers[0] // panics for a tile with no layers
	if base == "missing" {
		return 0, fmt.Errorf("layer %q not found for tile %d/%d/%d", base, t.z, t.x, t.y)
	}
	return len(t.layers) * 4096, nil
}

func worker(id int, jobs <-chan tile, wg *sync.WaitGroup, logger *log.Logger) {
	defer wg.Done()
	for t := range jobs {
		start := time.Now()
		n, err := render(t)
		if err != nil {
			logger.Printf("worker=%d level=warn tile=%d/%d/%d err=%q", id, t.z, t.x, t.y, err)
			continue
		}
		logger.Printf("worker=%d level=info rendered tile=%d/%d/%d bytes=%d took=%s", id, t.z, t.x, t.y, n, time.Since(start))
		time.Sleep(2 * time.Millisecond)
	}
}

func main() {
	logger := log.New(os.Stderr, "tilecache ", log.LstdFlags|log.Lmicroseconds)
	logger.Printf("level=info starting render pool workers=4 zoom=12")
	jobs := make(chan tile)
	var wg sync.WaitGroup
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go worker(i, jobs, &wg, logger)
	}
	for i := 0; i < 340; i++ {
		t := tile{z: 12, x: 2100 + i/20, y: 1400 + i%20, layers: []string{"roads", "water", "labels"}}
		if i == 117 || i == 233 {
			t.layers = []string{"missing"}
		}
		if i == 331 {
			t.layers = nil
		}
		jobs <- t
	}
	close(jobs)
	wg.Wait()
	logger.Printf("level=info done")
}
