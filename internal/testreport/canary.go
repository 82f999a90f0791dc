package testreport

import (
	"fmt"
	"slices"
	"strings"
)

// A canary is a test the judge writes beside the user's tests at judge
// time, into its own checkout only, under a name the judged code cannot
// predict: in each place, CanaryFails tests that must fail (each with
// another assertion form of the runner) and one that must pass. Code
// under test that changes how tests are reported (turns failures into
// passes, skips or expected failures, rewrites the report, ends the
// process before some tests run) changes the canaries' outcomes too, since
// they run in the same process with the same code loaded. The report is
// then not evidence of anything.

// CanaryFails is how many canaries of a place must fail.
const CanaryFails = 3

// Canary states of a place, as Report.Canaries records them; any other
// value says what went wrong.
const (
	CanaryOK     = "ok"     // every canary came out as written
	CanaryAbsent = "absent" // none ran: the command does not run tests there
)

// CanaryToken is the word every canary of place i carries in its name for
// a run whose nonce is nonce: a test ID holding it is a canary.
func CanaryToken(nonce string, i int) string {
	return fmt.Sprintf("Planxcanary%sp%d", nonce, i)
}

// CanaryFailName and CanaryPassName are the words after the token that
// say what a canary must do: Fails1…FailsN must fail, Passes must pass.
func CanaryFailName(k int) string { return fmt.Sprintf("Fails%d", k) }

// CanaryPassName: see CanaryFailName.
const CanaryPassName = "Passes"

// WithCanaries takes the canaries of a run with nonce out of rep and
// records, for each of places (place i carries CanaryToken(nonce, i)),
// whether they came out as written. rep's other tests are untouched.
func WithCanaries(rep Report, nonce string, places []string) Report {
	if nonce == "" || len(places) == 0 {
		return rep
	}
	seen := make([][]Test, len(places))
	var kept []Test
	for _, t := range rep.Tests {
		i := canaryPlace(t.ID, nonce, len(places))
		if i < 0 {
			kept = append(kept, t)
			continue
		}
		seen[i] = append(seen[i], t)
	}
	out := rep
	out.Tests = kept
	out.Canaries = map[string]string{}
	for k, v := range rep.Canaries {
		out.Canaries[k] = v
	}
	for i, place := range places {
		out.Canaries[place] = canaryState(seen[i], CanaryToken(nonce, i))
	}
	return out
}

// canaryPlace is the place whose token id holds, or -1.
func canaryPlace(id, nonce string, n int) int {
	at := strings.Index(id, "Planxcanary"+nonce+"p")
	if at < 0 {
		return -1
	}
	rest := id[at+len("Planxcanary"+nonce+"p"):]
	i, digits := 0, 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		i = i*10 + int(rest[digits]-'0')
		digits++
	}
	if digits == 0 || i >= n {
		return -1
	}
	return i
}

// canaryState says whether the canaries of one place came out as written.
func canaryState(tests []Test, token string) string {
	if len(tests) == 0 {
		return CanaryAbsent
	}
	find := func(word string) (Test, bool) {
		i := slices.IndexFunc(tests, func(t Test) bool { return canaryWord(t.ID, token) == word })
		if i < 0 {
			return Test{}, false
		}
		return tests[i], true
	}
	var wrong []string
	for k := 1; k <= CanaryFails; k++ {
		name := CanaryFailName(k)
		switch t, ok := find(name); {
		case !ok:
			wrong = append(wrong, name+" did not run")
		case t.Outcome != Fail:
			wrong = append(wrong, fmt.Sprintf("%s must fail and is reported %s", name, outcomeWord(t.Outcome)))
		}
	}
	switch t, ok := find(CanaryPassName); {
	case !ok:
		wrong = append(wrong, CanaryPassName+" did not run")
	case t.Outcome != Pass:
		wrong = append(wrong, fmt.Sprintf("%s must pass and is reported %s", CanaryPassName, outcomeWord(t.Outcome)))
	}
	// The canaries named as the tests the task must fix fail too.
	for _, t := range tests {
		if w := canaryWord(t.ID, token); w == CanaryPassName || strings.HasPrefix(w, "Fails") && len(w) == len("Fails1") {
			continue
		}
		if t.Outcome != Fail {
			name := t.ID[strings.Index(t.ID, token)+len(token):]
			wrong = append(wrong, fmt.Sprintf("%s, named as a test the task must fix, must fail and is reported %s",
				strings.TrimLeft(name, ".:"), outcomeWord(t.Outcome)))
		}
	}
	if len(wrong) == 0 {
		return CanaryOK
	}
	return token + ": " + strings.Join(wrong, ", ")
}

// canaryWord is the Fails<k> or Passes word that follows token in id
// (after a separator or a runner's prefix such as unittest's "test_").
func canaryWord(id, token string) string {
	rest := id[strings.Index(id, token)+len(token):]
	for _, w := range []string{CanaryPassName, "Fails"} {
		at := strings.Index(rest, w)
		if at < 0 {
			continue
		}
		end := at + len(w)
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		return rest[at:end]
	}
	return ""
}

func outcomeWord(o Outcome) string {
	switch o {
	case Pass:
		return "passed"
	case Fail:
		return "failed"
	case Skip:
		return "skipped"
	}
	return string(o)
}

// CanaryProblems compares the canaries of a run with those of its base:
// a place whose canaries did not come out as written now, or ran at the
// base and not now, means the code under test changed how tests are
// reported. Places are compared by name; nonces differ between runs.
func CanaryProblems(base, now Report) []string {
	var out []string
	places := make([]string, 0, len(now.Canaries))
	for p := range now.Canaries {
		places = append(places, p)
	}
	slices.Sort(places)
	for _, p := range places {
		st := now.Canaries[p]
		switch {
		case st == CanaryOK:
		case st == CanaryAbsent:
			if base.Canaries[p] == CanaryOK {
				out = append(out, fmt.Sprintf("the canary tests planx added in %s ran at the base and did not run now", placeName(p)))
			}
		default:
			out = append(out, fmt.Sprintf("the canary tests planx added in %s did not come out as written (%s)", placeName(p), st))
		}
	}
	return append(out, now.Twins...)
}

func placeName(p string) string {
	if p == "" || p == "." {
		return "the repository's root"
	}
	return p + "/"
}

// CanariesRan reports whether any canary of rep came out as written.
func (r Report) CanariesRan() bool {
	for _, st := range r.Canaries {
		if st == CanaryOK {
			return true
		}
	}
	return false
}
