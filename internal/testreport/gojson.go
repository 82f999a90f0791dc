package testreport

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"
)

// goEvent is one line of test2json's stream (go doc test2json). Build
// events (go 1.24 on) carry ImportPath instead of Package.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string
	FailedBuild string
}

// goPackage is what the stream said about one package so far.
type goPackage struct {
	result string             // the package's own pass, fail or skip; "" while it runs
	tests  map[string]Outcome // "" while a test runs
	failed map[string]bool    // tests that failed in some run (-count=2)
	order  []string           // tests in the order they started, for notes
	panic  string             // the first panic or fatal error printed in the package
	last   string             // the package's last line of its own output
}

// ParseGoJSON reads `go test -json` output. Subtests are tests of their
// own. A package that fails with no failing test (a build failure, a panic
// in init, os.Exit in TestMain or in a test) sets Failed, and its tests
// that started but never finished fail: go reports them as still running.
// Lines that are not JSON (go's own errors before any package runs, when
// stderr is read with stdout) are noted and skipped.
func ParseGoJSON(r io.Reader) (Report, error) {
	b := newBuilder(KindGoJSON)
	pkgs := map[string]*goPackage{}
	events, plain := 0, 0
	err := eachLine(r, func(line string) {
		var ev goEvent
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &ev) != nil || ev.Action == "" {
			if strings.TrimSpace(line) != "" {
				plain++
				if plain <= 5 {
					b.note("not go test -json output: %s", clip(line))
				}
			}
			return
		}
		events++
		goApply(b, pkgs, ev)
	})
	if plain > 5 {
		b.note("%d more lines were not go test -json output", plain-5)
	}
	if events == 0 {
		b.fail("no go test -json events: go did not run any package")
	}
	goFinish(b, pkgs)
	return b.report(), err
}

func goApply(b *builder, pkgs map[string]*goPackage, ev goEvent) {
	switch ev.Action {
	case "build-fail":
		b.note("build failed: %s", ev.ImportPath)
		return
	case "build-output":
		return
	}
	if ev.Package == "" {
		return
	}
	p := pkgs[ev.Package]
	if p == nil {
		p = &goPackage{tests: map[string]Outcome{}, failed: map[string]bool{}}
		pkgs[ev.Package] = p
	}
	if ev.Action == "output" {
		goOutput(p, ev)
		return
	}
	if ev.Test == "" {
		switch ev.Action {
		case "pass", "fail", "skip":
			p.result = ev.Action
		}
		return
	}
	switch ev.Action {
	case "run":
		if _, seen := p.tests[ev.Test]; !seen {
			p.order = append(p.order, ev.Test)
		}
		p.tests[ev.Test] = ""
	case "pass", "fail", "skip":
		if _, seen := p.tests[ev.Test]; !seen {
			p.order = append(p.order, ev.Test)
		}
		p.tests[ev.Test] = Outcome(ev.Action)
		if ev.Action == "fail" {
			p.failed[ev.Test] = true // -count=2: one failing run fails the test
		}
	}
}

// goOutput keeps the lines that say why a package failed on its own.
func goOutput(p *goPackage, ev goEvent) {
	o := strings.TrimSpace(ev.Output)
	if p.panic == "" && (strings.HasPrefix(o, "panic:") || strings.HasPrefix(o, "fatal error:")) {
		p.panic = clip(o)
	}
	if ev.Test == "" && o != "" {
		p.last = clip(strings.ReplaceAll(o, "\t", " "))
	}
}

// goFinish turns each package's state into tests and decides Failed.
func goFinish(b *builder, pkgs map[string]*goPackage) {
	names := make([]string, 0, len(pkgs))
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := pkgs[name]
		failing, unfinished := 0, 0
		for _, test := range p.order {
			o := p.tests[test]
			switch {
			case o == "":
				unfinished++
				b.note("%s %s started and never finished", name, test)
				o = Fail
			case p.failed[test]:
				failing++
				o = Fail
			}
			b.add(Test{ID: name + " " + test, Group: name, Outcome: o})
		}
		why := p.panic
		if why == "" {
			why = p.last
		}
		switch {
		case p.result == "":
			b.fail("package %s has no result: the output stops before go test finished it", name)
		case unfinished > 0:
			b.fail("package %s stopped in the middle of a test (os.Exit, a crash or a timeout): %s", name, why)
		case p.result == "fail" && failing == 0:
			b.fail("package %s failed with no failing test: %s", name, why)
		}
	}
}

// eachLine calls f with each line of r, however long: a test may print a
// megabyte on one line, and test2json puts it on one line of JSON.
func eachLine(r io.Reader, f func(string)) error {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			f(strings.TrimRight(line, "\r\n"))
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
