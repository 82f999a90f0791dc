package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/planx-dev/planx/internal/record"
)

// AllFailed describes, for an agent whose transcript shows tool calls
// with their results and every one of them failed, what failed: "every
// tool call the agent made failed (3 of 3): Bash go test ./...: EACCES:
// …". It is "" when a call succeeded or none ended. Such an agent could
// not run the tests it was asked to run, whatever it says at its end.
func AllFailed(calls []ToolCall) string {
	var failed []ToolCall
	done := 0
	for _, c := range calls {
		if !c.Done {
			continue
		}
		done++
		if c.Failed {
			failed = append(failed, c)
		}
	}
	if done == 0 || len(failed) < done {
		return ""
	}
	var parts []string
	for i, c := range failed {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(failed)-3))
			break
		}
		parts = append(parts, strings.TrimSpace(c.Name+" "+c.What)+": "+c.Error)
	}
	return fmt.Sprintf("every tool call the agent made failed (%d of %d): %s", len(failed), done, strings.Join(parts, "; "))
}

// UsageFile is the JSON a custom agent command may write at the path
// planx gives it in PLANX_USAGE_FILE, to report its model use: tokens in
// and out, and the price when it knows one.
type UsageFile struct {
	InputTokens  *int64   `json:"input_tokens"`
	OutputTokens *int64   `json:"output_tokens"`
	USD          *float64 `json:"usd"`
}

// ReadUsageFile reads what a custom agent wrote at path: ok is false when
// it wrote nothing; an error names a file planx cannot read as UsageFile.
func ReadUsageFile(path string) (c record.Cost, ok bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return record.Cost{}, false, nil
	}
	if err != nil {
		return record.Cost{}, false, fmt.Errorf("usage file: %w", err)
	}
	var u UsageFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return record.Cost{}, false, fmt.Errorf("usage file %s: %v (write {\"input_tokens\": N, \"output_tokens\": N, \"usd\": X})", path, err)
	}
	if u.InputTokens == nil && u.OutputTokens == nil && u.USD == nil {
		return record.Cost{}, false, fmt.Errorf("usage file %s: none of input_tokens, output_tokens, usd is set", path)
	}
	if u.InputTokens != nil {
		c.In = *u.InputTokens
	}
	if u.OutputTokens != nil {
		c.Out = *u.OutputTokens
	}
	if u.USD != nil {
		c.USD, c.HasUSD = *u.USD, true
	}
	if c.In < 0 || c.Out < 0 || c.USD < 0 {
		return record.Cost{}, false, fmt.Errorf("usage file %s: a negative count", path)
	}
	return c, true, nil
}
