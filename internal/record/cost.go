package record

import (
	"fmt"
	"strconv"
	"strings"
)

// Cost is what an agent's model use cost, as its CLI reported it: the
// tokens it sent (In, every prompt token, cached or not) and received
// (Out), and the price in US dollars when the CLI gives one (HasUSD).
// It is the value of the Planx-Cost trailer: "tokens in=5000 out=500" or
// "tokens in=5000 out=500; usd=0.0300".
type Cost struct {
	In     int64   `json:"in"`
	Out    int64   `json:"out"`
	USD    float64 `json:"usd,omitempty"`
	HasUSD bool    `json:"has_usd,omitempty"`
}

// Tokens is what a token budget counts: every token in and out.
func (c Cost) Tokens() int64 { return c.In + c.Out }

// Add is the sum of two costs; the price is known when either knows one
// (a part whose CLI gave none adds nothing to it).
func (c Cost) Add(d Cost) Cost {
	return Cost{In: c.In + d.In, Out: c.Out + d.Out, USD: c.USD + d.USD, HasUSD: c.HasUSD || d.HasUSD}
}

// IsZero reports a cost nothing was reported for.
func (c Cost) IsZero() bool { return c == Cost{} }

// String is the trailer value.
func (c Cost) String() string {
	s := fmt.Sprintf("tokens in=%d out=%d", c.In, c.Out)
	if c.HasUSD {
		s += "; usd=" + strconv.FormatFloat(c.USD, 'f', 4, 64)
	}
	return s
}

// ParseCost reads a Planx-Cost trailer value as String writes it.
func ParseCost(s string) (Cost, error) {
	var c Cost
	tokens, usd, hasUSD := strings.Cut(strings.TrimSpace(s), ";")
	if _, err := fmt.Sscanf(strings.TrimSpace(tokens), "tokens in=%d out=%d", &c.In, &c.Out); err != nil {
		return Cost{}, fmt.Errorf("cost %q: %w", s, err)
	}
	if hasUSD {
		v, ok := strings.CutPrefix(strings.TrimSpace(usd), "usd=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return Cost{}, fmt.Errorf("cost %q: the price is not usd=<number>", s)
		}
		c.USD, c.HasUSD = f, true
	}
	return c, nil
}
