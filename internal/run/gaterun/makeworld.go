package gaterun

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/gates"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/judge"
	"github.com/planx-dev/planx/internal/testreport"
	"github.com/planx-dev/planx/planparse"
)

// A make gate is judged by its exit code, and make decides what it runs
// from the makefiles it reads: a GNUmakefile or makefile read before the
// Makefile, a file a (wildcard) include pulls in, one that sets MAKEFLAGS
// or SHELL. The judge does not name those files; it asks make which it
// read (testreport.MakeCalls), in the judge's checkout, and the files the
// task changed without declaring them among those go back as the base has
// them for the gate's run apart (ExitCodesApart): the base's build, the
// task's code. Its other files stay the task's, as such a gate often
// checks the task's output.

// makeWorld returns, of undeclared (the files the task changed that its
// plan does not declare), those make reads for the make calls of gs: in
// the task's tree with put (the test files) as the base has them, again
// with what it found put back too until make reads no more of them, and,
// for those the task deleted, at the base. Where make cannot be asked (a
// word of its call known only at run time, a data base it did not print)
// every one of undeclared that is not code is returned, and why says so.
func (tr TestRuns) makeWorld(ctx context.Context, gs []gates.Gate, put, undeclared []string) (read []string, why string, err error) {
	qs, ok := makeQueries(gs)
	if len(undeclared) == 0 || len(qs) == 0 {
		return nil, "", nil
	}
	if !ok {
		return notCode(undeclared), "planx cannot ask make which makefiles it reads (a word of its command known only at run time, or a directory it cannot place)", nil
	}
	var gone []string
	for i := 0; i <= len(undeclared); i++ {
		c, err := tr.withBase(ctx, append(slices.Clone(put), read...), "judge-make", "planx: the task's tree as make reads it")
		if err != nil {
			return nil, "", err
		}
		files, missing, err := tr.makeReads(ctx, c, qs, undeclared)
		if err != nil {
			return nil, "", err
		}
		if files == nil {
			return notCode(undeclared), "make printed no data base to read its makefiles from", nil
		}
		if i == 0 {
			gone = missing
		}
		add := newOf(undeclared, files, read)
		if len(add) == 0 {
			break
		}
		read = append(read, add...)
	}
	if len(gone) > 0 {
		files, _, err := tr.makeReads(ctx, tr.Base, qs, nil)
		if err != nil {
			return nil, "", err
		}
		if files == nil {
			return notCode(undeclared), "make printed no data base to read its makefiles from at the base", nil
		}
		read = append(read, newOf(gone, files, read)...)
	}
	slices.Sort(read)
	return read, "", nil
}

// makeQuery is a gate's make call as the judge asks it: the query, run as
// a gate, and the directory make reads in, relative to the checkout.
type makeQuery struct {
	gate gates.Gate
	dir  string
}

// makeQueries are the queries of the make calls of gs; ok is false when
// one cannot be asked (testreport.MakeCall.Opaque, or a directory outside
// the checkout).
func makeQueries(gs []gates.Gate) (qs []makeQuery, ok bool) {
	ok = true
	for _, g := range gs {
		for i, mc := range testreport.MakeCalls(g.Command) {
			if mc.Opaque || mc.Dir == ".." || strings.HasPrefix(mc.Dir, "../") {
				ok = false
			}
			qs = append(qs, makeQuery{dir: mc.Dir,
				gate: gates.Gate{Name: fmt.Sprintf("%s-makefiles-%d", g.Name, i+1), Command: mc.Query, Timeout: g.Timeout}})
		}
	}
	return qs, ok
}

// makeReads checks commit c out and runs qs there: the makefiles make
// read, by their paths in the checkout, nil when a query did not say; and
// which of check the checkout does not have.
func (tr TestRuns) makeReads(ctx context.Context, c gitops.SHA, qs []makeQuery, check []string) (files, missing []string, err error) {
	dir, release, err := tr.Checkout(ctx, c, "judge-make")
	if err != nil {
		return nil, nil, err
	}
	// The queries may remake an included makefile, as the gate would: the
	// checkout they ran in is not the one the gate runs in.
	defer release()
	missing = missingIn(dir, check)
	run := make([]gates.Gate, len(qs))
	for i, q := range qs {
		run[i] = q.gate
	}
	id := planparse.TaskID(string(tr.Task.ID) + "-judge-make")
	results, err := tr.Gates.Exec(ctx, Spec{Task: tr.Task, ID: id, Dir: dir, Gates: run, Track: true})
	if err != nil {
		return nil, nil, err
	}
	if len(results) < len(qs) {
		return nil, missing, nil
	}
	files = []string{}
	for i, res := range results {
		list, curdirs, found := makefileList(res.OutputPath)
		if !found {
			return nil, missing, nil
		}
		// A name is read in the call's directory, and in each CURDIR make
		// printed (a sub-make's are its own): every reading is kept.
		subs := []string{qs[i].dir}
		for _, d := range curdirs {
			if sub, ok := tr.inCheckout(dir, ".", d); ok {
				subs = append(subs, sub)
			}
		}
		for _, f := range list {
			for _, sub := range subs {
				if p, ok := tr.inCheckout(dir, sub, f); ok && !slices.Contains(files, p) {
					files = append(files, p)
				}
			}
		}
	}
	return files, missing, nil
}

// makefileList reads MAKEFILE_LIST and CURDIR from the output file of a
// query (testreport.MakefileList).
func makefileList(out string) (files, dirs []string, found bool) {
	f, err := os.Open(out)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	return testreport.MakefileList(f)
}

// inCheckout is the path in the checkout dir of a file make named f,
// reading in sub (a path relative to the checkout): relative to sub, or
// absolute under the checkout as the query saw it (judgeAt in the judge's
// space, dir without one). ok is false for a file outside the checkout.
func (tr TestRuns) inCheckout(dir, sub, f string) (string, bool) {
	if !path.IsAbs(f) {
		p := path.Join(sub, f)
		return p, p != ".." && !strings.HasPrefix(p, "../")
	}
	f = path.Clean(f)
	roots := []string{judgeAt(tr.Gates.Home), filepath.ToSlash(dir)}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		roots = append(roots, filepath.ToSlash(real)) // make's CURDIR is the real path
	}
	for _, root := range roots {
		if f == root {
			return ".", true
		}
		if rel, ok := strings.CutPrefix(f, root+"/"); ok {
			return rel, true
		}
	}
	return "", false
}

// notCode are the paths of ps that are not code (judge.IsCode): what
// make could read as a makefile, when it cannot be asked which it read.
func notCode(ps []string) []string {
	var out []string
	for _, p := range ps {
		if !judge.IsCode(p) {
			out = append(out, p)
		}
	}
	return out
}

// missingIn are the paths of ps that dir does not have.
func missingIn(dir string, ps []string) []string {
	var out []string
	for _, p := range ps {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			out = append(out, p)
		}
	}
	return out
}

// newOf are the paths of of that are in read and not in had.
func newOf(of, read, had []string) []string {
	var out []string
	for _, p := range of {
		if slices.Contains(read, p) && !slices.Contains(had, p) {
			out = append(out, p)
		}
	}
	return out
}
