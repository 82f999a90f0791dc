package gates

import (
	"strings"
	"time"

	"github.com/planx-dev/planx/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// ReviewGate is the name the review's result is recorded under, beside the
// gates (Planx-Gate: review=pass …, its section of the gate-output note):
// no configured gate may take it while a review is set.
const ReviewGate = "review"

// DefaultReviewTimeout bounds a reviewer without `timeout:`.
const DefaultReviewTimeout = 10 * time.Minute

// Review is `.planx.yaml`'s `review:`: a second agent that reads each agent
// task's text and diff after its gates passed and gives a verdict, which
// is a gate (docs/gates.md, "The review gate").
type Review struct {
	// Agent is the reviewer: a preset name or a command reading the
	// prompt on stdin, as `agent:` is written.
	Agent string `json:",omitempty"`
	// Model is the reviewer's model; "" is the one the preset's own
	// setting (its environment) gives.
	Model   string        `json:",omitempty"`
	Timeout time.Duration `json:",omitempty"`
	// File and Line are where `review:` is written, for the error that
	// refuses a reviewer that is the task's own agent.
	File string `json:",omitempty"`
	Line int    `json:",omitempty"`
}

// On reports whether a review is set.
func (r Review) On() bool { return strings.TrimSpace(r.Agent) != "" }

var reviewKeys = []string{"agent", "model", "timeout"}

// review reads `review:`: a mapping with the reviewer's agent (required),
// model and timeout.
func (p configParser) review(k, v *yaml.Node) (Review, error) {
	r := Review{File: p.file, Line: k.Line}
	hint := "write review: with agent: (a preset or a command), and model: and timeout: if wanted"
	if v.Kind != yaml.MappingNode {
		return r, p.errf(v, hint, "review must be a mapping")
	}
	err := p.mapping(v, reviewKeys, func(k, v *yaml.Node) error {
		var err error
		switch k.Value {
		case "agent":
			r.Agent, err = p.str(k, v)
		case "model":
			r.Model, err = p.str(k, v)
		case "timeout":
			r.Timeout, err = p.duration(k, v)
		default:
			return p.errf(k, suggest.Hint(k.Value, reviewKeys), "unknown review key %q", k.Value)
		}
		return err
	})
	if err == nil && !r.On() {
		err = p.errf(v, hint, "review has no agent")
	}
	return r, err
}

// reviewNameTaken refuses a gate named like the review's record while a
// review is set: verify could not tell one from the other.
func (p configParser) reviewNameTaken(c Config) error {
	if !c.Review.On() {
		return nil
	}
	for _, g := range c.Gates {
		if g.Name == ReviewGate {
			return &ConfigError{File: p.file, Line: c.Review.Line, Msg: "a gate is named review, the name the review gate is recorded under", Hint: "rename that gate"}
		}
	}
	return nil
}
