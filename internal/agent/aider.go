package agent

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/planx-dev/planx/internal/record"
)

// aiderUsage is aider's report after each model reply (aider/coders/
// base_coder.py, calculate_and_show_tokens_and_cost): the message's
// tokens, rounded to thousands above 1000, and with a model it has prices
// for the message's and the session's cost.
var aiderUsage = regexp.MustCompile(`^Tokens: ([0-9.]+k?) sent(?:, [0-9.]+k? cache write)?(?:, [0-9.]+k? cache hit)?, ([0-9.]+k?) received\.(?: Cost: \$([0-9.]+) message, \$([0-9.]+) session\.)?`)

// aider reads one line of aider's output.
func (m *Meter) aider(line string) {
	g := aiderUsage.FindStringSubmatch(strings.TrimSpace(line))
	if g == nil {
		return
	}
	c := record.Cost{In: aiderTokens(g[1]), Out: aiderTokens(g[2])}
	m.part(fmt.Sprintf("reply-%d", len(m.order)), c)
	if g[4] != "" {
		usd, _ := strconv.ParseFloat(g[4], 64)
		m.sessionUSD = &usd
	}
}

// aiderTokens reads aider's rounded counts: 997, 1.6k, 16k.
func aiderTokens(s string) int64 {
	mult := 1.0
	if k, ok := strings.CutSuffix(s, "k"); ok {
		s, mult = k, 1000
	}
	f, _ := strconv.ParseFloat(s, 64)
	return int64(f*mult + 0.5)
}
