// Command modelstub serves a scripted model endpoint on loopback for trying
// agent CLIs by hand.
//
//	modelstub -script turns.json [-addr-file url.txt] [-dump dir]
//
// The script file is a JSON array of turns:
//
//	[{"Text": "...", "Calls": [{"Name": "Bash", "Args": {"command": "go test ./..."}}]}]
//
// It prints the base URL (http://127.0.0.1:PORT) on its first line, logs one
// line per request on stderr, writes each request body to dir/NNN-<api>.json
// when -dump is given, and runs until interrupted.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/planx-dev/planx/internal/modelstub"
)

func main() {
	script := flag.String("script", "", "JSON file with the script's turns (empty: no turns)")
	addrFile := flag.String("addr-file", "", "also write the base URL to this file")
	dump := flag.String("dump", "", "directory to write each request body to")
	final := flag.String("final", "", "text of the final turn once the script is exhausted")
	flag.Parse()

	var turns []modelstub.Turn
	if *script != "" {
		b, err := os.ReadFile(*script)
		if err != nil {
			log.Fatal(err)
		}
		if err := json.Unmarshal(b, &turns); err != nil {
			log.Fatalf("%s: %v", *script, err)
		}
	}
	s := modelstub.New(turns, modelstub.Options{Final: *final, Log: log.Printf})
	defer s.Close()
	fmt.Println(s.URL)
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(s.URL+"\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	written := 0
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-sig:
			return
		case <-tick.C:
		}
		if *dump == "" {
			continue
		}
		reqs := s.Requests()
		for ; written < len(reqs); written++ {
			r := reqs[written]
			name := filepath.Join(*dump, fmt.Sprintf("%03d-%s.json", written+1, r.API))
			meta := fmt.Sprintf("%s %s?%s turn=%d side=%v exhausted=%v\n", r.Method, r.Path, r.RawQuery, r.Turn, r.Side, r.Exhausted)
			for k, v := range r.Header {
				meta += fmt.Sprintf("%s: %v\n", k, v)
			}
			if err := os.WriteFile(name+".meta", []byte(meta), 0o644); err != nil {
				log.Print(err)
			}
			if err := os.WriteFile(name, r.Body, 0o644); err != nil {
				log.Print(err)
			}
		}
	}
}
