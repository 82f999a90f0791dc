package approval

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/risk"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrNotApproved: the plan has no approval in this repository.
	ErrNotApproved = errors.New("plan not approved")
	// ErrChanged: the plan's bytes differ from the approved ones.
	ErrChanged = errors.New("plan changed since it was approved")
)

// Approve records that the committer identity git would use now approves
// planRel (repo-relative) with content src, whose highest risk is level.
// It replaces an earlier approval of the same plan; a concurrent approval
// landing between the read and the write is an error wrapping
// gitops.ErrHeadMoved instead of a lost update.
func Approve(ctx context.Context, repo *gitops.Repo, planRel string, src []byte, level risk.Level) (Record, error) {
	planRel = path.Clean(planRel)
	ref, err := RefName(planRel)
	if err != nil {
		return Record{}, err
	}
	id, err := repo.CommitterIdent(ctx)
	if err != nil {
		return Record{}, err
	}
	who, when, err := parseIdent(id)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Plan: planRel, SHA256: Hash(src), Approver: who, Time: when, Level: level,
		Text: append([]byte(nil), src...), Ref: ref}
	if rec.Object, err = repo.HashObject(ctx, rec.marshal()); err != nil {
		return Record{}, err
	}
	old, err := repo.ResolveObject(ctx, ref)
	if err != nil {
		return Record{}, err
	}
	if old == "" {
		old = gitops.ZeroSHA
	}
	reason := fmt.Sprintf("planx approve: %s sha256:%s %s", planRel, rec.SHA256[:12], level)
	if err := repo.UpdateRef(ctx, ref, rec.Object, old, reason); err != nil {
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
	obj, err := repo.ResolveObject(ctx, ref)
	if err != nil || obj == "" {
		return nil, err
	}
	data, err := repo.CatBlob(ctx, obj)
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

// Check tells whether src, the current content of planRel, is what was
// approved. With no approval the error wraps ErrNotApproved; when the plan
// changed it wraps ErrChanged, the record is returned, and diff holds the
// changed lines between the approved text and src ("-" approved, "+" now,
// under "@@ -old +new @@" line headers; checkbox states are ignored, as in
// Hash).
func Check(ctx context.Context, repo *gitops.Repo, planRel string, src []byte) (*Record, string, error) {
	planRel = path.Clean(planRel)
	rec, err := Load(ctx, repo, planRel)
	if err != nil {
		return nil, "", err
	}
	if rec == nil || rec.Plan != planRel {
		return nil, "", fmt.Errorf("%w: %s has no approval in this repository; review it and run: planx approve %s",
			ErrNotApproved, planRel, planRel)
	}
	if rec.SHA256 == Hash(src) {
		return rec, "", nil
	}
	return rec, LineDiff(string(clearCheckboxes(rec.Text)), string(clearCheckboxes(src))),
		fmt.Errorf("%w: %s was approved by %s at %s (sha256 %s); review the changes and approve again: planx approve %s",
			ErrChanged, planRel, rec.Approver, rec.Time.Format("2006-01-02 15:04 MST"), rec.SHA256[:12], planRel)
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
