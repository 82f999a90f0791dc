package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/planx-dev/planx/internal/fsutil"
	"github.com/planx-dev/planx/internal/outcome"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
)

// Declared checks the files a task changed, in root (the work tree or a
// wave task's own), against those it declares, for the serial path and
// the waves alike: a declaration the changes contradict fails the task,
// and so do files outside the declared ones when strict (--strict-files);
// otherwise those are returned, for the caller to warn about
// (OutsideMessage).
func Declared(root string, t *planparse.Task, files []string, strict bool) ([]string, error) {
	problems, err := declaredProblems(root, t, files)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &outcome.Failure{What: "declared files: " + strings.Join(problems, "; ")}
	}
	if len(t.Files) == 0 {
		return nil, nil
	}
	var outside []string
	for _, f := range files {
		if !AnyCovers(t.Files, f) {
			outside = append(outside, f)
		}
	}
	if len(outside) > 0 && strict {
		return nil, &outcome.Failure{What: OutsideMessage(outside) + " (--strict-files)"}
	}
	return outside, nil
}

// OutsideMessage says that a task changed the files outside, which it
// does not declare.
func OutsideMessage(outside []string) string {
	return fmt.Sprintf("changed %s outside its declared files: %s", textsafe.Count(len(outside), "file"), strings.Join(outside, ", "))
}

// declaredProblems checks a task's declared files against the work in root
// (the work tree, or a wave task's own linked worktree): each must exist or
// be gone as declared, have been changed by the task, and a created file
// must not be empty unless the task says so.
func declaredProblems(root string, t *planparse.Task, files []string) ([]string, error) {
	var problems []string
	for _, f := range t.Files {
		fi, err := os.Lstat(fsutil.Under(root, f.Path))
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("verify %s: %w", t.ID, err)
		}
		switch {
		case f.Action == planparse.ActionDelete && exists:
			problems = append(problems, fmt.Sprintf("%s was declared deleted but still exists", f.Path))
		case f.Action != planparse.ActionDelete && !exists:
			problems = append(problems, fmt.Sprintf("%s was declared (%s) but does not exist", f.Path, f.Action))
		case !touched(f.Path, files) && !t.Checkpoint:
			problems = append(problems, fmt.Sprintf("%s was declared (%s) but the task did not change it", f.Path, f.Action))
		case f.Action == planparse.ActionCreate && fi.Mode().IsRegular() && fi.Size() == 0 && !saysEmpty(t, f.Path):
			problems = append(problems, fmt.Sprintf("%s was declared (create) but is empty", f.Path))
		}
	}
	return problems, nil
}

// Covers reports whether a declared path names file: the file itself, or
// a directory above it.
func Covers(declared, file string) bool {
	declared = strings.TrimSuffix(declared, "/")
	return file == declared || strings.HasPrefix(file, declared+"/")
}

// AnyCovers reports whether one of the declared files covers f.
func AnyCovers(declared []planparse.File, f string) bool {
	return slices.ContainsFunc(declared, func(d planparse.File) bool { return Covers(d.Path, f) })
}

func touched(declared string, files []string) bool {
	return slices.ContainsFunc(files, func(f string) bool { return Covers(declared, f) })
}

// saysEmpty reports whether the task says the file is meant to be empty: a
// line of the task naming the path also says "empty".
func saysEmpty(t *planparse.Task, p string) bool {
	for _, l := range strings.Split(t.Body, "\n") {
		if strings.Contains(l, p) && strings.Contains(strings.ToLower(l), "empty") {
			return true
		}
	}
	return false
}
