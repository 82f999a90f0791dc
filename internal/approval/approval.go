package approval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/risk"
	"github.com/planx-dev/planx/internal/textsafe"
	"github.com/planx-dev/planx/planparse"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrNotApproved: the plan has no approval in this repository.
	ErrNotApproved = errors.New("plan not approved")
	// ErrChanged: the plan's bytes differ from the approved ones.
	ErrChanged = errors.New("plan changed since it was approved")
)

// Subject is what an approval binds: the plan's task text and the
// configuration that runs with it.
type Subject struct {
	// Src is the plan's bytes.
	Src []byte
	// Plan, when set, is Src parsed: the checkbox of every task it found
	// (in headings and tables too) is blanked before hashing, so ticking a
	// task never voids an approval.
	Plan *planparse.Plan
	// Config lists, one per line, the settings from outside the plan text
	// that decide what runs: gates from .planx.yaml, the agent command, the
	// names of the environment variables passed through. A change of any
	// of them voids the approval like an edit of the plan does.
	Config string
}

// text is the plan as it is bound: every task checkbox blanked.
func (s Subject) text() []byte {
	src := bytes.Clone(s.Src)
	if s.Plan != nil {
		for _, t := range s.Plan.Tasks {
			if c := t.Checkbox; c > 0 && c+1 < len(src) && src[c-1] == '[' && src[c+1] == ']' {
				src[c] = ' '
			}
		}
	}
	return clearCheckboxes(src)
}

// Approve records that the committer identity git would use now approves
// planRel (repo-relative) as s, whose highest risk is level.
// It replaces an earlier approval of the same plan; a concurrent approval
// landing between the read and the write is an error wrapping
// gitops.ErrHeadMoved instead of a lost update.
func Approve(ctx context.Context, repo *gitops.Repo, planRel string, s Subject, level risk.Level) (Record, error) {
	planRel = path.Clean(planRel)
	ref, err := RefName(planRel)
	if err != nil {
		return Record{}, err
	}
	id, err := repo.Config().CommitterIdent(ctx)
	if err != nil {
		return Record{}, err
	}
	who, when, err := parseIdent(id)
	if err != nil {
		return Record{}, err
	}
	text := s.text()
	rec := Record{Plan: planRel, SHA256: Hash(text), Approver: who, Time: when, Level: level,
		Config: strings.Join(configLines(s.Config), "\n"), Text: text, Ref: ref}
	if rec.Object, err = repo.Objects().HashObject(ctx, rec.marshal()); err != nil {
		return Record{}, err
	}
	old, err := repo.Refs().ResolveObject(ctx, ref)
	if err != nil {
		return Record{}, err
	}
	if old == "" {
		old = gitops.ZeroSHA
	}
	reason := fmt.Sprintf("planx approve: %s sha256:%s %s", planRel, rec.SHA256[:12], level)
	if err := repo.Refs().Update(ctx, ref, rec.Object, old, reason); err != nil {
		return Record{}, fmt.Errorf("record approval of %s: %w", planRel, err)
	}
	return rec, nil
}

// Load returns planRel's approval, or (nil, nil) when there is none.
func Load(ctx context.Context, repo *gitops.Repo, planRel string) (*Record, error) {
	planRel = path.Clean(planRel)
	ref, err := RefName(planRel)
	if err != nil {
		return nil, err
	}
	obj, err := repo.Refs().ResolveObject(ctx, ref)
	if err != nil || obj == "" {
		return nil, err
	}
	data, err := repo.Objects().CatBlob(ctx, obj)
	if err != nil {
		return nil, fmt.Errorf("read approval %s: %w", ref, err)
	}
	rec, err := unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	rec.Ref, rec.Object = ref, obj
	return rec, nil
}

// Check tells whether s, planRel as it is now, is what was approved. With
// no approval the error wraps ErrNotApproved; when the plan or its
// configuration changed it wraps ErrChanged, the record is returned, and
// diff holds the changed lines between the approved text and now ("-"
// approved, "+" now, under "@@ -old +new @@" line headers; checkbox states
// are ignored), the configuration's under "configuration:".
func Check(ctx context.Context, repo *gitops.Repo, planRel string, s Subject) (*Record, string, error) {
	planRel = path.Clean(planRel)
	rec, err := Load(ctx, repo, planRel)
	if err != nil {
		return nil, "", err
	}
	if rec == nil || rec.Plan != planRel {
		return nil, "", fmt.Errorf("%w: %s has no approval in this repository; review it and run: planx approve %s",
			ErrNotApproved, planRel, planRel)
	}
	text, config := s.text(), strings.Join(configLines(s.Config), "\n")
	if rec.SHA256 == Hash(text) && rec.Config == config {
		return rec, "", nil
	}
	planChanged, configChanged := rec.SHA256 != Hash(text), rec.Config != config
	var diff string
	what := "text and configuration"
	if planChanged {
		diff = LineDiff(string(clearCheckboxes(rec.Text)), string(text))
	} else {
		what = "configuration"
	}
	if configChanged {
		diff += "configuration (.planx.yaml, agent, environment):\n" + LineDiff(lined(rec.Config), lined(config))
	} else {
		what = "text"
	}
	return rec, diff,
		fmt.Errorf("%w: %s was approved by %s at %s (sha256 %s) and its %s changed since; review the changes and approve again: planx approve %s",
			ErrChanged, planRel, rec.Approver, rec.Time.Format("2006-01-02 15:04 MST"), rec.SHA256[:12], what, planRel)
}

func lined(s string) string {
	if s == "" {
		return ""
	}
	return s + "\n"
}

// LineDiff lists the lines that differ between old and new, grouped in
// hunks headed "@@ -L +L @@" with the 1-based line where each starts.
func LineDiff(old, new string) string {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(old, new)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var sb strings.Builder
	oldLine, newLine, inHunk := 1, 1, false
	for _, d := range diffs {
		ls := strings.SplitAfter(d.Text, "\n")
		if ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		if d.Type == diffmatchpatch.DiffEqual {
			oldLine, newLine, inHunk = oldLine+len(ls), newLine+len(ls), false
			continue
		}
		if !inHunk {
			fmt.Fprintf(&sb, "@@ -%d +%d @@\n", oldLine, newLine)
			inHunk = true
		}
		prefix := "+"
		if d.Type == diffmatchpatch.DiffDelete {
			prefix = "-"
			oldLine += len(ls)
		} else {
			newLine += len(ls)
		}
		for _, l := range ls {
			sb.WriteString(prefix + strings.TrimRight(l, "\r\n") + "\n")
		}
	}
	return sb.String()
}

// EscapeDiff makes a diff of plan text safe to print: each line escaped for
// the terminal (see textsafe), so a changed line cannot redraw itself.
func EscapeDiff(diff string) string {
	return textsafe.Block(diff)
}
