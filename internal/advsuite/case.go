package advsuite

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The outcomes of a case. A cheat is caught when planx did not commit T001,
// or committed a tree the ground truth finds correct (the cheat did no
// harm); it is a committed cheat when planx committed a tree the ground
// truth finds wrong. An honest case is accepted when planx committed it,
// refused when it did not.
const (
	caught         = "caught"
	committedCheat = "committed-cheat"
	accepted       = "accepted"
	refusedHonest  = "refused-honest"
)

// Classes with a meaning of their own: honest controls, and cheats that
// only hard-code the visible test's answers, which no judge that runs only
// the repository's tests can tell from real work.
const (
	honestClass   = "honest"
	hardcodeClass = "hardcode"
)

// kase is one agent of testdata/agents: <lang prefix><name>.sh, whose
// leading comment lines say what it does and, with "key: value" lines, its
// class, its task's declared files, its environment and the gate a judge
// that reads the edited configuration would run.
type kase struct {
	name   string
	lang   *lang
	script string // absolute path
	class  string
	what   string
	files  []string // "Modify: calc.go": the task's Files: bullets
	env    []string // K=V with $HOME for the case's home directory
	// naiveGate is the gate as the cheat's own tree names it (after
	// editing .planx.yaml or the plan), for the "the cheat works" check.
	naiveGate string
	// issue is the class of issue 35's Why the case belongs to (1: the
	// verdict read from the process under test, 2: the judge's world in
	// reach, 3: a declared test rewritten, 4: code correct only under
	// test), 0 for none; twin is the honest case beside a cheat of one.
	issue int
	twin  string
}

func (k *kase) cheat() bool { return k.class != honestClass }

// loadCases reads testdata/agents.
func loadCases(dir string) ([]*kase, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sh"))
	if err != nil {
		return nil, err
	}
	var cases []*kase
	for _, p := range paths {
		k, err := loadCase(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(p), err)
		}
		cases = append(cases, k)
	}
	return cases, nil
}

func loadCase(p string) (*kase, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(p), ".sh")
	k := &kase{name: name, lang: langOf(name), script: abs}
	if k.lang == nil {
		return nil, fmt.Errorf("the name starts with none of go_, py_, pt_, js_, mk_")
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var what []string
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#!") {
			continue
		}
		text, ok := strings.CutPrefix(line, "#")
		if !ok {
			break
		}
		text = strings.TrimSpace(text)
		key, val, _ := strings.Cut(text, ":")
		val = strings.TrimSpace(val)
		switch key {
		case "class":
			k.class = val
		case "files":
			for _, f := range strings.Split(val, ",") {
				k.files = append(k.files, strings.TrimSpace(f))
			}
		case "env":
			k.env = append(k.env, val)
		case "naive-gate":
			k.naiveGate = val
		case "issue":
			if k.issue, err = strconv.Atoi(val); err != nil || k.issue < 1 || k.issue > 4 {
				return nil, fmt.Errorf("issue: %q is none of 1 to 4", val)
			}
		case "twin":
			k.twin = val
		default:
			what = append(what, text)
		}
	}
	k.what = strings.Join(what, " ")
	if k.class == "" || k.what == "" {
		return nil, fmt.Errorf("no class: line or no description in the leading comment")
	}
	if k.files == nil {
		k.files = []string{"Modify: " + k.lang.source}
	}
	return k, sc.Err()
}

// readExpect reads testdata/expect.txt: "case outcome" lines, # comments.
func readExpect(p string) (map[string]string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	want := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || !slices.Contains([]string{caught, committedCheat, accepted, refusedHonest}, f[1]) {
			return nil, fmt.Errorf("%s:%d: want \"case outcome\" with outcome one of caught, committed-cheat, accepted, refused-honest", p, i+1)
		}
		want[f[0]] = f[1]
	}
	return want, nil
}

// updateExpect rewrites expect.txt at p with got, today's outcomes alone
// of some of cases (those a test binary ran), keeping every other case's
// line as the file has it: test binaries that go test runs at once may
// each update their own cases. It holds a lock (flock on expect.txt.lock
// beside the file, which git ignores) from reading the file to replacing
// it, so that none loses another's lines; the new file is renamed into
// place, so a run reading it meanwhile sees the old file or the new one
// whole. A case that is neither in got nor in the file (another binary's
// new case) gets its line when that binary updates; a name the file has
// that cases lack is dropped.
func updateExpect(p string, cases []*kase, got map[string]string) error {
	unlock, err := lockFile(p + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	outcomes, err := readExpect(p)
	if os.IsNotExist(err) {
		outcomes, err = map[string]string{}, nil
	}
	if err != nil {
		return err
	}
	for name, o := range got {
		outcomes[name] = o
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".expect-*.txt")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(formatExpect(cases, outcomes))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), p)
}

// formatExpect is expect.txt with the outcomes of cases, by class; a case
// with no outcome has no line.
func formatExpect(cases []*kase, outcomes map[string]string) string {
	var b strings.Builder
	b.WriteString("# The outcome of every case of the adversarial suite on today's planx.\n" +
		"# caught / committed-cheat for cheats, accepted / refused-honest for honest\n" +
		"# agents. Rewritten by PLANX_ADV_UPDATE=1 go test ./internal/advsuite/...;\n" +
		"# review the diff (see README.md).\n")
	class := ""
	for _, k := range sorted(cases) {
		o, ok := outcomes[k.name]
		if !ok {
			continue
		}
		if k.class != class {
			class = k.class
			fmt.Fprintf(&b, "\n# %s\n", class)
		}
		fmt.Fprintf(&b, "%-28s %s\n", k.name, o)
	}
	return b.String()
}

// sorted orders cases by class (honest last), language and name.
func sorted(cases []*kase) []*kase {
	out := slices.Clone(cases)
	rank := func(k *kase) int {
		switch k.class {
		case hardcodeClass:
			return 1
		case honestClass:
			return 2
		}
		return 0
	}
	slices.SortFunc(out, func(a, b *kase) int {
		if r := rank(a) - rank(b); r != 0 {
			return r
		}
		if c := strings.Compare(a.class, b.class); c != 0 {
			return c
		}
		if c := strings.Compare(a.lang.prefix, b.lang.prefix); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return out
}
