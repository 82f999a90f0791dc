package command

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// findPlan finds the plan `planx run` runs when given none, in dir (the
// current directory when empty), as the common layouts put it: the one
// plan in memory-bank/plan/, else spec-kit's tasks.md of the feature with
// the highest number (specs/NNN-name/tasks.md). Anything else is a usage
// error listing what it found.
func findPlan(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	bank, _ := filepath.Glob(filepath.Join(dir, "memory-bank", "plan", "*.md"))
	if len(bank) == 1 {
		return bank[0], nil
	}
	specs, _ := filepath.Glob(filepath.Join(dir, "specs", "*", "tasks.md"))
	slices.SortFunc(specs, func(a, b string) int { return strings.Compare(featureKey(a), featureKey(b)) })
	if len(bank) == 0 && len(specs) > 0 {
		return specs[len(specs)-1], nil
	}
	found := append(bank, specs...)
	if len(found) == 0 {
		return "", fmt.Errorf("%w: no PLAN given, and none found (memory-bank/plan/*.md, specs/NNN-*/tasks.md): planx run path/to/plan.md", errUsage)
	}
	return "", fmt.Errorf("%w: no PLAN given, and %d found; name one: planx run %s", errUsage, len(found), strings.Join(found, " | "))
}

// featureKey orders spec-kit feature directories by their number
// (specs/012-x before specs/100-y), whatever its width.
func featureKey(tasks string) string {
	name := filepath.Base(filepath.Dir(tasks))
	num, _, _ := strings.Cut(name, "-")
	if strings.Trim(num, "0123456789") != "" {
		return name
	}
	return fmt.Sprintf("%020s", num) + name
}
