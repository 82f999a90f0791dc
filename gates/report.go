package gates

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Report says where a gate's test runner reports test by test, for a gate
// planx cannot read by looking at its command (a script, mvn, gradle,
// npx jest): the `report:` setting of a gate in .planx.yaml. The zero
// Report leaves planx to infer it from the command.
type Report struct {
	// Kind is ReportGoJSON, ReportTAP or ReportUnittest (the gate's output
	// is the report), ReportJUnit (XML files the command writes, Files) or
	// ReportNone (the exit code only, even where planx could infer more).
	Kind string `json:",omitempty"`
	// Files is a glob relative to the directory the gate runs in, for
	// ReportJUnit: target/surefire-reports/*.xml, **/build/test-results/test/*.xml.
	Files string `json:",omitempty"`
}

// Report kinds, as `report:` spells them.
const (
	ReportGoJSON   = "go-json"
	ReportTAP      = "tap"
	ReportUnittest = "unittest"
	ReportJUnit    = "junit"
	ReportNone     = "none"
)

// reportHint is what the config error for a wrong `report:` says.
const reportHint = "write go-json, tap, unittest or none, or junit with the files the command writes: " +
	"'report: {junit: target/surefire-reports/*.xml}'"

// IsZero reports whether the gate leaves the report to planx to infer.
func (r Report) IsZero() bool { return r == Report{} }

// String is the setting as written: "go-json", "junit target/*.xml".
func (r Report) String() string {
	if r.Files != "" {
		return r.Kind + " " + r.Files
	}
	return r.Kind
}

// parseReport reads `report: KIND`, `report: junit:GLOB` or
// `report: {junit: GLOB}`.
func parseReport(kind, files string) (Report, error) {
	switch kind {
	case ReportGoJSON, ReportTAP, ReportUnittest, ReportNone:
		if files != "" {
			return Report{}, fmt.Errorf("report %s takes no files; only junit does", kind)
		}
		return Report{Kind: kind}, nil
	case ReportJUnit:
		if err := checkReportGlob(files); err != nil {
			return Report{}, err
		}
		return Report{Kind: kind, Files: files}, nil
	}
	return Report{}, fmt.Errorf("report %q is not one of go-json, tap, unittest, junit, none", kind)
}

// checkReportGlob keeps the files planx removes before the gate runs (see
// ClearReport) to XML files inside the directory the gate runs in.
func checkReportGlob(g string) error {
	switch {
	case strings.TrimSpace(g) == "":
		return errors.New("report junit needs the files the command writes")
	case path.IsAbs(g) || filepath.IsAbs(g) || slices.Contains(strings.Split(g, "/"), ".."):
		return fmt.Errorf("report junit %q must be inside the checkout, relative to its root", g)
	case !strings.HasSuffix(g, ".xml"):
		return fmt.Errorf("report junit %q must name .xml files: planx removes what it matches before the gate runs", g)
	}
	if !doublestar.ValidatePattern(g) {
		return fmt.Errorf("report junit %q is not a valid glob", g)
	}
	return nil
}

// ReportFiles are the files of the gate's JUnit report that exist in dir,
// the directory the gate runs in, sorted: the files the glob matches, "**"
// being any number of directories (doublestar's syntax). A symbolic link
// the glob names is followed (a clean checkout links the work tree's
// ignored target/ or junit.xml into it); "**" does not descend into linked
// directories, nor into .git, where planx keeps its own reports.
func (r Report) ReportFiles(dir string) ([]string, error) {
	if r.Kind != ReportJUnit {
		return nil, nil
	}
	if dir == "" {
		dir = "."
	}
	fsys := noGitFS{os.DirFS(dir).(fs.ReadDirFS)}
	found, err := doublestar.Glob(fsys, path.Clean(r.Files), doublestar.WithNoFollow())
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", r.Files, err)
	}
	var out []string
	for _, p := range found {
		// With WithNoFollow a link to a directory matches like a file; a
		// dangling link is kept: ClearReport removes it.
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil && fi.IsDir() {
			continue
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// noGitFS hides every .git entry of a directory tree from the glob.
type noGitFS struct{ fs.ReadDirFS }

func (f noGitFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := f.ReadDirFS.ReadDir(name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return e.Name() == ".git" }), err
}

// ClearReport removes the files of the gate's JUnit report from dir before
// the gate runs (a symbolic link is removed, not what it names), so that
// what is read after it is what this run wrote: a
// report left by an earlier run (or written by a task's code) would
// otherwise pass the gate with an old green result. Removing beats
// comparing modification times, which the code under test can set to the
// future.
func (r Report) ClearReport(dir string) error {
	files, err := r.ReportFiles(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the old report %s: %w", f, err)
		}
	}
	return nil
}
