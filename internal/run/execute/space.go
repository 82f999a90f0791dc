package execute

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planx-dev/planx/execlog"
	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/progress"
	"github.com/planx-dev/planx/internal/sandbox"
	"github.com/planx-dev/planx/internal/space"
	"github.com/planx-dev/planx/planparse"
)

// An agent runs in a task space where the platform has one (Linux with
// user namespaces and overlayfs): it may write anything — its own state in
// HOME, caches, /tmp, toolchains, the git directory, its own commits — and
// every write lands in the space's layers. When it has ended, planx copies
// its change to the work tree out of the space (Apply), takes the objects
// of the commits it made so that they are folded into the task's commit,
// lists what it wrote elsewhere in the task's log, and removes the space:
// nothing else it wrote reaches the user. Where spaces are refused, the
// jail confines by denial (confine.go).

// spaces reports whether the run's agents get task spaces, probing once
// (or taking the probe Warm started). Call with j.mu held.
func (j *Jail) spaces() bool {
	return j.spacesAllowed() && j.spaceProbe.Err() == nil
}

// spacesAllowed reports whether the run's settings let its tasks have
// spaces at all (not `sandbox: off`, `sandbox: {space: false}` nor capped).
func (j *Jail) spacesAllowed() bool {
	mode, err := sandbox.ParseMode(j.cfg.Mode)
	return err == nil && mode != sandbox.Off && !j.cfg.NoSpace && !sandbox.SpacesCapped()
}

// Settle waits for the probe Warm started: a run that ends before its
// first task leaves no probe behind.
func (j *Jail) Settle() {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.spaceProbe.Started() {
		_ = j.spaceProbe.Err()
	}
}

// Warm starts the probe for task spaces in the background, so that the
// run's first task does not wait for it: a probe makes a space and ends
// it, tens of milliseconds the rollback commit can overlap. root is the
// run's work tree: the probe writes nothing under it (whoever probes
// later, the judge's spaces with the agents' spaces turned off, too).
func (j *Jail) Warm(root string) {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.spaceProbe.Started() {
		return
	}
	j.spaceProbe = space.NewProber(root)
	if j.spacesAllowed() {
		j.spaceProbe.Start()
	}
}

// SpaceProbe is the run's one probe for spaces, for the judge's spaces
// (gaterun.Spaces) to share.
func (j *Jail) SpaceProbe() *space.Prober {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.spaceProbe
}

// hasSpaces reports whether the run's agents (and reviewers) get task
// spaces, probing once; false for no jail.
func (j *Jail) hasSpaces() bool {
	if j == nil {
		return false
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.spaces()
}

// openSpace opens a task space over dir for task t's agent, or returns nil
// where the run has none. Its layers live under the user's cache
// directory, outside the work tree; the cleanup removes them.
func (j *Jail) openSpace(t *planparse.Task, runID, dir, stateDir string, hide []string) (*space.Space, func(), error) {
	if !j.hasSpaces() {
		return nil, nil, nil
	}
	sp, state, err := j.makeSpace(t, runID, dir, stateDir, hide)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: task space: %w", t.ID, err)
	}
	return sp, func() {
		_ = sp.Close()
		_ = os.RemoveAll(state)
	}, nil
}

// makeSpace makes the space of openSpace and returns it with its state
// directory.
func (j *Jail) makeSpace(t *planparse.Task, runID, dir, stateDir string, hide []string) (*space.Space, string, error) {
	parent, err := space.StateParent(dir)
	if err != nil {
		return nil, "", err
	}
	state, err := os.MkdirTemp(parent, runID+"-"+string(t.ID)+"-")
	if err != nil {
		return nil, "", err
	}
	// Where its work goes, for a recovery after planx was killed while the
	// agent ran (RecoverSpaces).
	if err := os.WriteFile(filepath.Join(state, targetFile), []byte(dir), 0o600); err != nil {
		_ = os.RemoveAll(state)
		return nil, "", err
	}
	// The agent's state directory (its reason file, a preset's history)
	// is planx's and written through, as are the paths the user lists.
	persist := []string{stateDir}
	home, _ := os.UserHomeDir()
	// The paths the user lets a confined agent write (sandbox.writable)
	// are written through too: that is what they asked for.
	for _, p := range append(slices.Clone(j.cfg.Persist), j.cfg.Writable...) {
		if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
			p = filepath.Join(home, rest)
		}
		persist = append(persist, p)
	}
	sp, err := space.Open(space.Options{Root: dir, Dir: state, Persist: persist, Hide: hide})
	if err != nil {
		_ = os.RemoveAll(state)
		return nil, "", err
	}
	return sp, state, nil
}

// targetFile, in a space's state directory, names the work tree (or
// slot) its agent's work goes to.
const targetFile = "target"

// RecoverSpaces takes into their work trees what the agents of run runID
// left in task spaces that planx, killed, never took out (their processes
// died with it), as if they had written there, and removes the spaces (and
// what is left of earlier attempts' step spaces, never read again): the
// recovery that follows (resume, skip, abort) then finds the work where it
// finds a crashed step's, and keeps it.
func RecoverSpaces(runID string, out *progress.Progress) {
	if runID == "" {
		return
	}
	for _, parent := range space.StateCandidates() {
		states, _ := filepath.Glob(filepath.Join(parent, runID+"-*"))
		for _, state := range states {
			recoverSpace(state, out)
		}
	}
}

func recoverSpace(state string, out *progress.Progress) {
	if isStepSpace(state) {
		// The stopped attempt's own (st.AttemptSpace) was settled before
		// (recovery.RecoverSpace): any other is an earlier attempt's,
		// whose work was taken out when it ended.
		_ = space.RemoveAll(state)
		return
	}
	b, err := os.ReadFile(filepath.Join(state, targetFile))
	target := string(b)
	if err != nil || !filepath.IsAbs(target) {
		_ = os.RemoveAll(state)
		return
	}
	if _, err := os.Stat(target); err != nil {
		_ = os.RemoveAll(state)
		return
	}
	sp, err := space.Open(space.Options{Root: target, Dir: state})
	if err != nil {
		out.Println("planx: warning: the task space %s of the stopped run could not be read: %v (left in place)", state, err)
		return
	}
	if cs, err := sp.Changes(); err == nil && !cs.Empty() {
		if err := sp.Apply(target); err != nil {
			out.Println("planx: warning: the work an agent left in its task space %s could not be taken into %s: %v (left in place)", state, target, err)
			return
		}
		out.Println("planx: took the work an agent left in its task space into %s (%d files changed, %d deleted)", target, len(cs.Written), len(cs.Deleted))
	}
	_ = sp.Close()
	_ = os.RemoveAll(state)
}

// landed is what planx took out of an agent's space.
type landed struct {
	tip    string // the commit HEAD named in the space, when it moved
	reason string // what the agent wrote in its reason file there
}

// land takes the agent's work out of its space sp into the work tree dir:
// the files it changed there (never its git directory), the objects of the
// commits it made (tip: where its HEAD ended), what it wrote outside the
// work tree (the log's Outside), and its reason file. repo is the
// repository of dir; reasonPath the reason file's path as the agent saw it.
func land(sp *space.Space, repo *gitops.Repo, dir, tmp string, held []string, lt *execlog.Task, reasonPath string) (landed, error) {
	var l landed
	if err := sp.SetupError(); err != nil {
		return l, fmt.Errorf("the agent's task space: %w", err)
	}
	kept, err := sp.ApplyHolding(dir, heldBy(held))
	if err != nil {
		return l, fmt.Errorf("take the agent's work out of its task space: %w", err)
	}
	if p, ok := sp.UpperOf(reasonPath); ok {
		if b, err := os.ReadFile(p); err == nil {
			l.reason = strings.TrimSpace(string(b))
		}
	}
	if repo != nil {
		layer := gitops.LayerOf(repo, sp.UpperOf)
		head, herr := layer.Head()
		now, err := gitops.LayerOf(repo, func(string) (string, bool) { return "", false }).Head()
		if herr == nil && err == nil && head != now {
			if _, err := layer.AdoptObjects(); err != nil {
				return l, fmt.Errorf("the agent's commits in its task space: %w", err)
			}
			l.tip = string(head)
		}
	}
	outside, err := sp.Outside()
	if err == nil {
		lt.Outside = outsideList(outside, repo, tmp)
	}
	lt.Outside = append(lt.Outside, keptList(kept)...)
	return l, nil
}

// outsideList names what an agent wrote outside its work tree, for the
// log: paths (HOME shown as ~), deletions marked, and a directory with
// several writes (a build cache) as one entry with their count. The
// repository's git directory (its own commits, index, config: planx's to
// fold or drop) and the task's own temporary directory tmp are left out.
func outsideList(ws []space.Write, repo *gitops.Repo, tmp string) []string {
	home, _ := os.UserHomeDir()
	groups := map[string][]string{}
	for _, w := range ws {
		if repo != nil && (within(w.Path, repo.GitDir) || within(w.Path, repo.CommonDir)) || tmp != "" && within(w.Path, tmp) {
			continue
		}
		p := w.Path
		if home != "" && home != "/" && within(p, home) {
			rel, _ := filepath.Rel(home, p)
			p = filepath.Join("~", rel)
		}
		if w.Deleted {
			p += " (deleted)"
		}
		key := outsideGroup(p)
		groups[key] = append(groups[key], p)
	}
	var out []string
	for key, ps := range groups {
		if len(ps) == 1 {
			out = append(out, ps[0])
		} else {
			out = append(out, fmt.Sprintf("%s/ (%d files)", key, len(ps)))
		}
	}
	slices.Sort(out)
	return out
}

// heldBy says a path of the work tree is, holds or lies beneath one of
// the user's ignored entries (held, directories ending in "/").
func heldBy(held []string) func(rel string) bool {
	return func(rel string) bool {
		for _, h := range held {
			dir := strings.TrimSuffix(h, "/")
			if rel == dir || strings.HasPrefix(rel, dir+"/") || strings.HasPrefix(dir, rel+"/") {
				return true
			}
		}
		return false
	}
}

// keptList names, for the log, the user's ignored files an agent changed
// in its space that planx left as they were, a directory of several as one.
func keptList(kept []string) []string {
	groups := map[string]bool{}
	for _, p := range kept {
		key, _, _ := strings.Cut(p, "/")
		groups[key] = true
	}
	var out []string
	for key := range groups {
		out = append(out, key+" in the work tree (ignored by git: the user's, left as it was)")
	}
	slices.Sort(out)
	return out
}

// outsideGroup is the directory a write outside the work tree is counted
// under: the first two names below ~ or / (~/.cache/go-build, /tmp/x).
func outsideGroup(p string) string {
	parts := strings.Split(p, "/")
	n := 3 // "", "tmp", "x" for /tmp/x; "~", ".cache", "go-build" for ~/…
	if len(parts) <= n {
		return p
	}
	return strings.Join(parts[:n], "/")
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
