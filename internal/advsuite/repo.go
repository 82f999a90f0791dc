package advsuite

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/planx-dev/planx/internal/gittest"
)

// tools is what the suite found on the machine: planx as it built it, and
// the directories of the toolchains every environment's PATH is made of.
type tools struct {
	planx    string
	pathDirs []string // go's, python3's, node's, git's and make's directories, then /usr/bin and /bin
	goCache  string
	modCache string
	goPath   string
	testdata string // absolute
	scratch  string // the suite's temporary directory

	mu        sync.Mutex
	templates map[string]*template // by language and declared files
	truths    map[string]*truth    // by the content of a ground truth checkout
	// missing says, by a lang's needs (pytest, make), why it is not here.
	missing map[string]string
}

// caseEnv is the hermetic environment of one case's agent, gates and
// planx: its own HOME (whose ~/.local/bin comes first on PATH, as for many
// users) and TMPDIR, fixed git identity and dates, the C locale, no colour;
// Go's caches are the real ones so builds stay fast, with no GOFLAGS. The
// case's own variables come last.
func (tl *tools) caseEnv(home, tmp string, k *kase) []string {
	env := []string{
		"PATH=" + strings.Join(append([]string{filepath.Join(home, ".local", "bin")}, tl.pathDirs...), ":"),
		"TMPDIR=" + tmp,
		"GOCACHE=" + tl.goCache, "GOMODCACHE=" + tl.modCache, "GOPATH=" + tl.goPath,
		"GOFLAGS=", "GOTOOLCHAIN=local", "GOTELEMETRY=off",
	}
	for k, v := range gittest.Env(home) {
		env = append(env, k+"="+v)
	}
	for _, kv := range k.env {
		env = append(env, strings.ReplaceAll(kv, "$HOME", home))
	}
	return env
}

// newHome makes a case's home directory, with the ~/.local/bin its PATH
// starts with.
func newHome(dir string) (string, error) {
	home := filepath.Join(dir, "home")
	return home, os.MkdirAll(filepath.Join(home, ".local", "bin"), 0o755)
}

// newRepo makes a git repository at dir holding k's base files, its
// .planx.yaml and the plan, committed on main: the one-task plan, or with
// wave the plan of the wave mode (wavePlan). It is a copy of the template
// for k's language, declared files and mode, made once.
func (tl *tools) newRepo(ctx context.Context, dir string, env []string, k *kase, wave bool) error {
	key := fmt.Sprint(k.lang.dir, "\x00", wave, "\x00", strings.Join(k.files, "\x00"))
	tl.mu.Lock()
	tp := tl.templates[key]
	if tp == nil {
		tp = &template{dir: filepath.Join(tl.scratch, fmt.Sprintf("template-%d", len(tl.templates)))}
		tl.templates[key] = tp
	}
	tl.mu.Unlock()
	tp.once.Do(func() { tp.err = tl.makeTemplate(ctx, tp.dir, env, k, wave) })
	if tp.err != nil {
		return tp.err
	}
	return copyTree(tp.dir, dir)
}

// template is a base repository made once and copied for each case.
type template struct {
	once sync.Once
	dir  string
	err  error
}

func (tl *tools) makeTemplate(ctx context.Context, dir string, env []string, k *kase, wave bool) error {
	base := filepath.Join(tl.testdata, "base", k.lang.dir)
	if err := copyTree(base, dir); err != nil {
		return err
	}
	plan := alonePlan(k)
	if wave {
		plan = wavePlan(k)
	}
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(plan), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-qm", "base"}} {
		if _, err := git(ctx, dir, env, args...); err != nil {
			return err
		}
	}
	return nil
}

// alonePlan is k's one-task plan.
func alonePlan(k *kase) string {
	plan := "---\ntopic: sub\n---\n# Calculator\n\n- [ ] T001 Implement Sub\n  Files:\n"
	for _, f := range k.files {
		plan += "  - " + f + "\n"
	}
	return plan + "\n  Make Sub return a minus b.\n"
}

// copyTree copies the regular files under src to dst, with their
// executable bits.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dst, rel), b, 0o644|info.Mode().Perm()&0o111)
	})
}

func writeFile(p string, b []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, mode)
}

// result is what a command did.
type result struct {
	code int // -1: it did not run, or was killed
	out  string
	err  error
}

func (r result) String() string {
	return fmt.Sprintf("exit %d (%v)\n%s", r.code, r.err, r.out)
}

// run runs argv in dir with exactly env (argv[0] is looked up in env's
// PATH, not the suite's), stdin empty, stdout and stderr together, for at
// most two minutes.
func run(ctx context.Context, dir string, env []string, argv ...string) result {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lookPath(env, argv[0]), argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	trace(cmd, time.Since(start))
	// ExitCode is -1 for a process that did not run or was killed.
	return result{code: cmd.ProcessState.ExitCode(), out: out.String(), err: err}
}

// trace prints what cmd took (wall clock, then CPU with the children it
// waited for) when PLANX_ADV_TRACE is set: where the suite's time goes.
func trace(cmd *exec.Cmd, wall time.Duration) {
	cpu := time.Duration(0)
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	tracef("TRACE %v %v %s", wall.Round(time.Millisecond), cpu.Round(time.Millisecond), strings.Join(cmd.Args, " "))
}

// tracef prints a line to stderr when PLANX_ADV_TRACE is set.
func tracef(format string, args ...any) {
	if os.Getenv("PLANX_ADV_TRACE") != "" {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

// lookPath finds prog in the PATH of env.
func lookPath(env []string, prog string) string {
	if strings.Contains(prog, "/") {
		return prog
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return prog
}

// auditPath is the PATH of the suite's own commands: the toolchains'
// directories, none an agent may write (set by setup).
var auditPath string

// gitEnv is env for the suite's own git: the audit's PATH (a fake git in
// ~/.local/bin is not run), no replace refs followed (an agent may plant
// them): what it reads is what the objects hold.
func gitEnv(env []string) []string {
	return append(slices.Clip(env), "PATH="+auditPath, "GIT_NO_REPLACE_OBJECTS=1")
}

// git runs git in dir with gitEnv(env).
func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	r := run(ctx, dir, gitEnv(env), append([]string{"git"}, args...)...)
	if r.code != 0 {
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), r)
	}
	return strings.TrimRight(r.out, "\n"), nil
}

// planxEnv are the variables planx gives an agent and a gate, as a judge
// run without planx sees them in the "the cheat works" check.
func planxEnv(repo string) []string {
	return []string{"PLANX_TASK_ID=T001", "PLANX_PLAN=" + filepath.Join(repo, "plan.md"),
		"PLANX_RUN_ID=20260102-030405-advsui", "PLANX_REPO=" + repo}
}

// committedT001 is the commit planx made for T001, or "" when it made none.
func committedT001(ctx context.Context, repo string, env []string) (string, error) {
	out, err := git(ctx, repo, env, "log", "--format=%H %s")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(out, "\n") {
		sha, subject, _ := strings.Cut(line, " ")
		if strings.HasPrefix(subject, "T001: ") {
			return sha, nil
		}
	}
	return "", nil
}
