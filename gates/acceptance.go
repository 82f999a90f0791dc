package gates

import (
	"fmt"
	"strings"

	"github.com/planx-dev/planx/planparse"
)

// AcceptanceCommands are a task's acceptance criteria written as a command:
// the whole item is one code span, e.g. Acceptance: `go test ./pkg/...`.
func AcceptanceCommands(t *planparse.Task) []string {
	var out []string
	for _, a := range t.Acceptance {
		a = strings.TrimSpace(a)
		if len(a) > 2 && strings.HasPrefix(a, "`") && strings.HasSuffix(a, "`") && strings.Count(a, "`") == 2 {
			out = append(out, strings.TrimSpace(a[1:len(a)-1]))
		}
	}
	return out
}

// Acceptance returns the acceptance commands of t as gates named
// acceptance-1, acceptance-2, …: checks like gates, run first, recorded in
// Planx-Gate trailers under those names.
func Acceptance(t *planparse.Task) []Gate {
	var out []Gate
	for i, c := range AcceptanceCommands(t) {
		out = append(out, Gate{Name: fmt.Sprintf("acceptance-%d", i+1), Command: c, Timeout: DefaultTimeout})
	}
	return out
}
