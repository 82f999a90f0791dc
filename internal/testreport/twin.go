package testreport

import (
	"fmt"
	"slices"
	"strings"
)

// A twin is a copy the judge makes, in its own checkout only, of a test
// the task must fix (it failed at the base): the same body, under names
// drawn at judge time — the test's own name, its class, its file, and the
// test-side helper modules it imports. It runs in the same run as the
// original, against the same code. Code under test that changes how a
// test is reported by the names of what calls it (an assertion made a
// no-op for a caller named test_sub, a report rewritten for test_ops's
// lines, a helper found by its name and replaced) steers the original and
// not its twin: the original passes and the twin does not.

// Twin is one twin of a run: K numbers it (TwinToken), Orig is the ID of
// the test it copies, Place the directory its canaries were planted in.
type Twin struct {
	K     int
	Orig  string
	Place string
}

// TwinToken is the word the names of twin k of a run with nonce carry:
// the test itself is test_<token> (Python) or titled "<token> …" (node);
// the other tests of its file's copy carry TwinCopy.
func TwinToken(nonce string, k int) string {
	return fmt.Sprintf("Planxtwin%s_%d_", nonce, k)
}

// TwinCopy is the word a node twin puts before the titles of the other
// tests of its file's copy: they are taken out of the report, not judged.
func TwinCopy(nonce string) string { return "Planxtwin" + nonce + "_copy" }

// WithTwins takes the twins of a run with nonce out of rep and records,
// in rep.Twins, each original reported passed whose twin is not (failed,
// skipped or missing). A twin is judged only where the canaries of its
// place came out as written: where the command runs no test planx adds
// (it selects tests by name), a missing twin says nothing.
func WithTwins(rep Report, nonce string, twins []Twin) Report {
	if nonce == "" || len(twins) == 0 {
		return rep
	}
	mark := "Planxtwin" + nonce + "_"
	var kept, copies []Test
	for _, t := range rep.Tests {
		if strings.Contains(t.ID, mark) {
			copies = append(copies, t)
		} else {
			kept = append(kept, t)
		}
	}
	out := rep
	out.Tests = kept
	out.Twins = slices.Clone(rep.Twins)
	for _, tw := range twins {
		orig, ok := out.Lookup(tw.Orig)
		if !ok || orig.Outcome != Pass || rep.Canaries[tw.Place] != CanaryOK {
			continue
		}
		tok := TwinToken(nonce, tw.K)
		state := "missing"
		for _, c := range copies {
			if !twinOwn(c.ID, tok) || ParamSuffix(c.ID) != ParamSuffix(tw.Orig) {
				continue
			}
			if state = outcomeWord(c.Outcome); c.Outcome != Pass {
				break
			}
		}
		if state != "passed" {
			out.Twins = append(out.Twins, fmt.Sprintf("%s is reported passed and its twin, the same test under names planx chose (%s), is %s: "+
				"the code under test behaves by the names of what calls it", tw.Orig, tok, twinState(state)))
		}
	}
	return out
}

// twinOwn says whether id is the twin test of token tok itself, not a
// copy of another test of its file (whose IDs hold the run's mark too):
// node's innermost title starts with tok, Python's test function is
// test_<tok> (a parameter suffix aside).
func twinOwn(id, tok string) bool {
	title := id
	if i := strings.LastIndex(id, " > "); i >= 0 {
		title = id[i+len(" > "):]
	}
	if strings.HasPrefix(title, tok) {
		return true
	}
	id = strings.TrimSuffix(id, ParamSuffix(id))
	name := id[strings.LastIndexAny(id, ".:")+1:]
	return strings.HasPrefix(name, "test_"+tok)
}

// ParamSuffix is the parameter suffix ("[1-2]") that ends a parametrized
// test's ID, or "": a pytest twin's parameters are its original's.
func ParamSuffix(id string) string {
	if !strings.HasSuffix(id, "]") {
		return ""
	}
	if i := strings.LastIndex(id, "["); i >= 0 {
		return id[i:]
	}
	return ""
}

func twinState(s string) string {
	if s == "missing" {
		return "missing from the report"
	}
	return "reported " + s
}
