package planparse

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// corpusDir is ../shared/corpus beside the repository (or $PLANX_CORPUS):
// real plans from public repositories, kept out of this repo. Tests skip
// when it is absent.
var corpusDir = func() string {
	if d := os.Getenv("PLANX_CORPUS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "corpus")
}()

type corpusWant struct {
	file              string
	format            Format
	tasks             int
	firstID, firstLbl string
	lastID, lastLbl   string
}

// corpusExpect records, for every corpus file, what planx makes of it. The
// values were reviewed by hand against each file (see ../shared/corpus/FORMATS.md);
// a change here is a behaviour change and needs the same review.
var corpusExpect = []corpusWant{
	{"kiro/JoEz89__Kiro-AutismCenter__.kiro__specs__autism-center-website__tasks.md", FormatKiro, 74, "T001", "1", "T074", "21.2"},
	{"kiro/OBigVee__bkhrease_consult__.kiro__specs__bkhrease-academic-website__tasks.md", FormatKiro, 48, "T001", "1", "T048", "14.3"},
	{"kiro/RockyBoyRC__SpaceWeirdos__.kiro__specs___archived__space-weirdos-ui__tasks.md", FormatKiro, 77, "T001", "1", "T077", "16.3"},
	{"kiro/RockyBoyRC__SpaceWeirdos__.kiro__specs__high-severity-duplication-fixes__tasks.md", FormatKiro, 21, "T001", "1", "T021", "7"},
	{"kiro/YZCUS__kiro-stock-platform__.kiro__specs__stock-analysis-platform__tasks.md", FormatKiro, 40, "T001", "1", "T040", "12.2"},
	{"kiro/gotalab__cc-sdd__.kiro__settings__templates__specs__tasks.md", FormatChecklist, 3, "T001", "", "T003", ""},
	{"kiro/gotalab__cc-sdd__.kiro__specs__customer-support-rag-backend-ja__tasks.md", FormatKiro, 27, "T001", "1.1", "T027", "8.2"},
	{"kiro/llamojha__no-vibe-no-code-kiroween__.kiro__specs__hexagonal-architecture-refactor__tasks-es.md", FormatKiro, 43, "T001", "1", "T043", "10.2"},
	{"kiro/llamojha__no-vibe-no-code-kiroween__.kiro__specs__testing-automation-mocks__tasks.md", FormatKiro, 78, "T001", "1", "T078", "18.4"},
	{"memorybank/alchemiststudiosDOTai__tunacode__memory-bank__execute__2025-12-09_19-00-00_web-fetch-tool.md", FormatNative, 8, "T001", "T1", "T008", "T8"},
	{"memorybank/alchemiststudiosDOTai__tunacode__memory-bank__execute__2026-02-28_16-00-00_prompt_versioning.md", FormatNative, 1, "T006", "T6", "T006", "T6"},
	{"memorybank/alchemiststudiosDOTai__tunacode__memory-bank__plan__2025-09-15_12-29-04_configuration_dashboard_implementation.md", FormatNative, 7, "T001", "T1", "T007", "T7"},
	{"memorybank/alchemiststudiosDOTai__tunacode__memory-bank__plan__2025-12-09_18-45-00_web-fetch-tool.md", FormatNative, 8, "T001", "T1", "T008", "T8"},
	{"memorybank/alchemiststudiosDOTai__tunacode__memory-bank__plan__2026-02-28_15-45-00_prompt_versioning.md", FormatNative, 13, "T001", "T1", "T013", "T13"},
	{"memorybank/alchemiststudiosDOTai__tunacode__memory-bank__plan__2026-03-06_12-51-21_skills_lookup_selection_consolidation.md", FormatNative, 9, "T001", "T001", "T009", "T009"},
	{"memorybank/deepaksisodiya__Todo__memory-bank__tasks.md", FormatChecklist, 124, "T001", "", "T124", ""},
	{"memorybank/teknokomo__universo-platformo-react__memory-bank__plan__metahub-entity-copy-plan-2026-02-26.md", FormatChecklist, 29, "T001", "A1", "T029", "G4"},
	{"memorybank/teknokomo__universo-platformo-react__memory-bank__tasks.md", FormatChecklist, 100, "T001", "INDOC1", "T100", "T6"},
	{"other/0x4D44__mdcode__IMPLEMENTATION_PLAN.md", FormatPhased, 8, "T001", "", "T008", ""},
	{"other/AbianS__prisma-generate-uml__.planning__phases__01-foundation__01-01-PLAN.md", FormatGSD, 2, "T001", "Task 1", "T002", "Task 2"},
	{"other/AbianS__prisma-generate-uml__.planning__phases__02-performance-core__02-01-PLAN.md", FormatPhased, 3, "T001", "Task 02-01-01", "T003", "Task 02-01-03"},
	{"other/AgentArtel__open-rpg-artel-studio__open-rpg__.cursor__plans__session_recorder_and_npc_jobs_ecb35fbf.plan.md", FormatCursor, 10, "T001", "phase1-types", "T010", "phase3-bridge"},
	{"other/Pauli-Group__Hegemon__.agent__ADAPTIVE_LIVENESS_COLDPATH_EXECPLAN.md", FormatChecklist, 7, "T001", "", "T007", ""},
	{"other/alphabetaluck__wechat-mp-article__task_plan.md", FormatChecklist, 9, "T001", "Phase 1", "T009", "Phase 9"},
	{"other/choym92__araverus__docs__workflow__3-tasks__2-tasks-finance-tts-briefing.md", FormatKiro, 116, "T001", "1.0", "T116", "11.10"},
	{"other/jayarjo__devagent__PLAN.md", FormatChecklist, 148, "T001", "", "T148", ""},
	{"other/loofitheboss__loofi-fedora-tweaks__.workflow__specs__tasks-v31.0.0.md", FormatNative, 15, "T001", "T1", "T015", "T15"},
	{"other/loofitheboss__loofi-fedora-tweaks__.workflow__specs__tasks-v43.0.0.md", FormatChecklist, 15, "T001", "TASK-001", "T015", "TASK-015"},
	{"other/pbollineni04__sheltr-home-management-app__.specs__plans__landing-page-redesign.md", FormatPhased, 4, "T001", "", "T004", ""},
	{"other/pbollineni04__sheltr-home-management-app__.specs__tasks__tech-debt-cleanup.md", FormatChecklist, 8, "T001", "0", "T008", "7"},
	{"other/wibus-wee__mcpv__docs__EXEC_PLANS__EXEC_PLAN_CONFIG_CLI.md", FormatChecklist, 4, "T001", "", "T004", ""},
	{"phased/0xBigBoss__ghostty-webgl__IMPLEMENTATION_PLAN.md", FormatPhased, 31, "T001", "", "T031", ""},
	{"phased/DaveSkender__Stock.Indicators__docs__plans__file-reorg.plan.md", FormatPhased, 42, "T001", "Task 1.1", "T042", "Task 8.5"},
	{"phased/TheMonk2121__ai-dev-tasks__000_core__artifacts__active__task_lists__Task-List-B-1020-Complete-HNSW-Vector-Index-Migration.md", FormatPhased, 8, "T001", "Task 1.1", "T008", "Task 4.2"},
	{"phased/jayson-lennon__pi-devloop__PLAN.md", FormatChecklist, 41, "T001", "", "T041", ""},
	{"phased/obra__lace__docs__plans__2025-07-04__04-agent-spawning.md", FormatPhased, 7, "T001", "Task 1.1", "T007", "Task 5.1"},
	{"phased/obra__lace__docs__plans__2025-07-24-parallel-tasks.md", FormatPhased, 10, "T001", "Task 1.1", "T010", "Task 5.1"},
	{"speckit/DaveSkender__Stock.Indicators__specs__001-develop-streaming-indicators__tasks.md", FormatSpecKit, 185, "T171", "T171", "T185", "T185"},
	{"speckit/GoCodeAlone__modular__specs__001-baseline-specification-for__tasks.md", FormatSpecKit, 58, "T001", "T001", "T058", "T058"},
	{"speckit/Priivacy-ai__spec-kitty__kitty-specs__003-auto-protect-agent__tasks.md", FormatSpecKit, 40, "T001", "T001", "T040", "T040"},
	{"speckit/Priivacy-ai__spec-kitty__kitty-specs__003-auto-protect-agent__tasks__WP01-create-gitignore-manager.md", FormatNative, 7, "T001", "T001", "T007", "T007"},
	{"speckit/github__spec-kit__templates__plan-template.md", FormatNative, 0, "", "", "", ""},
	{"speckit/github__spec-kit__templates__tasks-template.md", FormatSpecKit, 28, "T001", "T001", "T028", "T028"},
	{"speckit/github__spec-kit__templates__tasks-template.v0-5042c76.md", FormatSpecKit, 23, "T001", "T001", "T023", "T023"},
	{"speckit/javeria-kamran__Taskops__specs__phase-3-4__tasks.md", FormatSpecKit, 65, "T001", "T001", "T065", "T065"},
	{"speckit/microsoft__CommunityManagement-Sample-Spec-Kit__specs__004-permissions-creator-accounts__plan.md", FormatNative, 0, "", "", "", ""},
	{"speckit/microsoft__CommunityManagement-Sample-Spec-Kit__specs__010-events-explorer__tasks.md", FormatSpecKit, 84, "T001", "T001", "T084", "T084"},
	{"speckit/nadeemsangrasi__creator-vault__specs__001-backend-api__tasks.md", FormatSpecKit, 76, "T001", "T001", "T076", "T076"},
	{"superpowers/obra__lace__docs__plans__2025-01-09-background-job-notifications.md", FormatSuperpowers, 9, "T001", "Task 1", "T009", "Task 9"},
	{"superpowers/obra__superpowers__docs__plans__2025-11-22-opencode-support-implementation.md", FormatSuperpowers, 18, "T001", "Task 1", "T018", "Task 18"},
	{"superpowers/obra__superpowers__docs__superpowers__plans__2026-03-11-zero-dep-brainstorm-server.md", FormatSuperpowers, 4, "T001", "Task 1", "T004", "Task 4"},
	{"superpowers/obra__superpowers__skills__writing-plans__SKILL.md", FormatNative, 0, "", "", "", ""},
	{"superpowers/tshuldberg__WyVoice__docs__plans__queue__01-myvoice-tray-hotkey-transcript.md", FormatChecklist, 24, "T001", "", "T024", ""},
	{"taskmaster/0xfauzi__testcraft__.taskmaster__tasks__task_001.txt", FormatTaskMaster, 6, "T001", "1", "T006", "1.5"},
	{"taskmaster/AlexKucera__obsidian-typst-pdf-export__.taskmaster__tasks__tasks.json", FormatTaskMaster, 60, "T001", "1", "T060", "10.5"},
	{"taskmaster/Chious__map-app__tasks__task_003.txt", FormatTaskMaster, 1, "T001", "3", "T001", "3"},
	{"taskmaster/Chious__map-app__tasks__tasks.json", FormatTaskMaster, 15, "T001", "1", "T015", "15"},
}

func corpusFiles(t testing.TB) []string {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("corpus not present at %s", corpusDir)
	}
	var files []string
	err := filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Dir(p) != corpusDir {
			rel, _ := filepath.Rel(corpusDir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

func parseCorpus(t *testing.T, rel string) *Plan {
	t.Helper()
	p, err := ParseFile(filepath.Join(corpusDir, filepath.FromSlash(rel)), Options{})
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return p
}

func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	want := map[string]corpusWant{}
	for _, w := range corpusExpect {
		want[w.file] = w
	}
	if len(files) != len(corpusExpect) {
		t.Errorf("corpus has %d files, the table %d", len(files), len(corpusExpect))
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			w, ok := want[rel]
			if !ok {
				t.Fatalf("no expectation for %s", rel)
			}
			p := parseCorpus(t, rel)
			if err := p.Err(); err != nil {
				t.Errorf("error diagnostics: %v", err)
			}
			if p.Format != w.format || len(p.Tasks) != w.tasks {
				t.Fatalf("format %s, %d tasks; want %s, %d", p.Format, len(p.Tasks), w.format, w.tasks)
			}
			if w.tasks == 0 {
				if !hasDiag(p, SeverityWarning, "no tasks found") {
					t.Error("a plan without tasks must say so")
				}
				return
			}
			first, last := p.Tasks[0], p.Tasks[len(p.Tasks)-1]
			if string(first.ID) != w.firstID || first.Label != w.firstLbl || string(last.ID) != w.lastID || last.Label != w.lastLbl {
				t.Errorf("first/last = %s %q / %s %q, want %s %q / %s %q",
					first.ID, first.Label, last.ID, last.Label, w.firstID, w.firstLbl, w.lastID, w.lastLbl)
			}
			for _, tk := range p.Tasks {
				if tk.Checkbox >= 0 {
					if c := p.Source[tk.Checkbox]; p.Source[tk.Checkbox-1] != '[' || p.Source[tk.Checkbox+1] != ']' || !strings.ContainsRune(" xX-", rune(c)) {
						t.Errorf("%s: checkbox offset %d does not point into a box", tk.ID, tk.Checkbox)
					}
				}
			}
		})
	}
}

var (
	fenceLineRe = regexp.MustCompile("^\\s{0,3}(`{3,}|~{3,})")
	// A spec-kit task line, counted independently of the parser: a list
	// bullet, an optional checkbox, an optional bold, then T and digits.
	specBoxRe    = regexp.MustCompile(`^\s*[-*+]\s+\[[ xX]\]\s+(?:\*\*)?T\d+(?:\*\*)?:?(?:\s|$)`)
	specBulletRe = regexp.MustCompile(`^\s*[-*+]\s+(?:\*\*)?T\d+(?:\*\*)?:?(?:\s|$)`)
	kiroBoxRe    = regexp.MustCompile(`^\s*(?:[-*+]\s+)+\[[ xX\-]\]\*?\s+(\d+(?:\.\d+)?)\.?(?:\s|$)`)
)

// unfencedLines returns the lines outside fenced code blocks, tracking the
// fence character and length the way CommonMark does (a longer or equal run
// of the same character closes a fence).
func unfencedLines(src []byte) []string {
	var out []string
	var open string
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if m := fenceLineRe.FindStringSubmatch(line); m != nil {
			switch {
			case open == "":
				open = m[1]
				continue
			case m[1][0] == open[0] && len(m[1]) >= len(open) && strings.TrimSpace(line[len(line)-len(strings.TrimLeft(line, " "))+len(m[1]):]) == "":
				open = ""
				continue
			}
		}
		if open == "" {
			out = append(out, line)
		}
	}
	return out
}

// TestCorpusSpecKitCounts checks that every spec-kit task file yields one
// task per T-numbered checklist line outside fences (or per T-numbered
// bullet when the file has no checkboxes).
func TestCorpusSpecKitCounts(t *testing.T) {
	n := 0
	for _, rel := range corpusFiles(t) {
		if !strings.HasPrefix(rel, "speckit/") {
			continue
		}
		p := parseCorpus(t, rel)
		if p.Format != FormatSpecKit {
			continue
		}
		n++
		boxes, bullets := 0, 0
		for _, l := range unfencedLines(p.Source) {
			if specBoxRe.MatchString(l) {
				boxes++
			} else if specBulletRe.MatchString(l) {
				bullets++
			}
		}
		want := boxes
		if boxes == 0 {
			want = bullets
		}
		if len(p.Tasks) != want || want == 0 {
			t.Errorf("%s: %d tasks, %d T-lines outside fences", rel, len(p.Tasks), want)
		}
	}
	if n < 8 {
		t.Errorf("only %d spec-kit task files detected as spec-kit", n)
	}
}

// TestCorpusKiroParents checks that in every Kiro file each "N." and "N.M"
// checkbox is a task, with N.M's parent being task N when N is a checkbox too.
func TestCorpusKiroParents(t *testing.T) {
	n := 0
	for _, rel := range corpusFiles(t) {
		if !strings.HasPrefix(rel, "kiro/") {
			continue
		}
		p := parseCorpus(t, rel)
		var labels []string
		for _, l := range unfencedLines(p.Source) {
			if m := kiroBoxRe.FindStringSubmatch(l); m != nil {
				labels = append(labels, m[1])
			}
		}
		if len(labels) == 0 {
			continue // the cc-sdd template uses {{NUMBER}} placeholders
		}
		n++
		if p.Format != FormatKiro || len(p.Tasks) != len(labels) {
			t.Errorf("%s: %s with %d tasks, %d numbered checkboxes", rel, p.Format, len(p.Tasks), len(labels))
			continue
		}
		byLabel := map[string]*Task{}
		for i, tk := range p.Tasks {
			if tk.Label != labels[i] {
				t.Errorf("%s: task %d label %q, want %q", rel, i, tk.Label, labels[i])
			}
			byLabel[tk.Label] = tk
		}
		for _, tk := range p.Tasks {
			major, _, sub := strings.Cut(tk.Label, ".")
			var want TaskID
			if parent, ok := byLabel[major]; sub && ok {
				want = parent.ID
			}
			if tk.Parent != want {
				t.Errorf("%s: %s (%s) parent %q, want %q", rel, tk.ID, tk.Label, tk.Parent, want)
			}
		}
	}
	if n < 8 {
		t.Errorf("only %d Kiro files checked", n)
	}
}
