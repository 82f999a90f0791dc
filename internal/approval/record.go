package approval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/planx-dev/planx/gitops"
	"github.com/planx-dev/planx/internal/risk"
)

// RefPrefix is where approvals live; RefName adds the plan's path.
const RefPrefix = "refs/planx/approvals/"

// formatVersion is the record's first line; a reader refuses versions it
// does not know rather than misreading them.
// Version 2 added the configuration lines; version 1 records are still read
// (as approving an empty configuration).
const (
	formatVersion   = "planx-approval: 2"
	formatVersionV1 = "planx-approval: 1"
)

// Record is one approval.
type Record struct {
	Plan     string     `json:"plan"`     // repo-relative, slash-separated
	SHA256   string     `json:"sha256"`   // Hash of the plan as approved
	Approver string     `json:"approver"` // "Name <email>", git's committer identity
	Time     time.Time  `json:"time"`
	Level    risk.Level `json:"level"` // the plan's highest risk level when approved
	// Config is the configuration approved with the plan, one line per
	// setting (see Subject.Config); empty in version 1 records.
	Config string     `json:"config,omitempty"`
	Text   []byte     `json:"-"` // the plan as approved, checkboxes blanked
	Ref    string     `json:"ref"`
	Object gitops.SHA `json:"object"` // the blob holding the record
}

// configLines splits a configuration into its lines, dropping empty ones.
func configLines(c string) []string {
	var out []string
	for _, l := range strings.Split(c, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Hash is the hex sha256 that binds an approval to a plan: of its bytes,
// with the state of every list-item checkbox blanked ("- [x]" hashes as
// "- [ ]"). planx ticks a task's checkbox when it commits the task, and
// that must not void the approval of the plan it is executing; which tasks
// are done does not change what their steps do.
func Hash(src []byte) string {
	sum := sha256.Sum256(clearCheckboxes(src))
	return hex.EncodeToString(sum[:])
}

// checkboxRE matches a list item's checkbox; the state is group 2.
var checkboxRE = regexp.MustCompile(`(?m)^([ \t]*(?:[-*+]|[0-9]+[.)])[ \t]+\[)([^\]\n])(\])`)

// clearCheckboxes blanks the state of every list-item checkbox.
func clearCheckboxes(src []byte) []byte {
	return checkboxRE.ReplaceAll(src, []byte("$1 $3"))
}

// marshal writes the record: header lines, a blank line, the plan verbatim.
func (r *Record) marshal() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nplan: %s\nsha256: %s\napprover: %s\ntime: %s\nlevel: %s\n",
		formatVersion, r.Plan, r.SHA256, r.Approver, r.Time.Format(time.RFC3339), r.Level)
	for _, l := range configLines(r.Config) {
		fmt.Fprintf(&b, "config: %s\n", l)
	}
	b.WriteByte('\n')
	b.Write(r.Text)
	return b.Bytes()
}

// unmarshal reads a record and checks that its text still has its hash.
func unmarshal(data []byte) (*Record, error) {
	head, text, ok := bytes.Cut(data, []byte("\n\n"))
	if !ok {
		return nil, fmt.Errorf("approval record: no blank line after the header")
	}
	lines := strings.Split(string(head), "\n")
	if lines[0] != formatVersion && lines[0] != formatVersionV1 {
		return nil, fmt.Errorf("approval record: unknown format %q (a newer planx wrote it?)", lines[0])
	}
	r := &Record{Text: text}
	var config []string
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, ": ")
		var err error
		switch k {
		case "plan":
			r.Plan = v
		case "sha256":
			r.SHA256 = v
		case "approver":
			r.Approver = v
		case "time":
			r.Time, err = time.Parse(time.RFC3339, v)
		case "level":
			r.Level, err = risk.ParseLevel(v)
		case "config":
			config = append(config, v)
		}
		if err != nil {
			return nil, fmt.Errorf("approval record: %s: %w", k, err)
		}
	}
	r.Config = strings.Join(config, "\n")
	if r.Plan == "" || r.SHA256 == "" {
		return nil, fmt.Errorf("approval record: plan or sha256 missing")
	}
	if Hash(text) != r.SHA256 {
		return nil, fmt.Errorf("approval record for %s is corrupt: its text does not hash to its sha256", r.Plan)
	}
	return r, nil
}

// parseIdent splits "Name <email> 1767323045 +0000" into who and when.
func parseIdent(id string) (string, time.Time, error) {
	f := strings.Fields(id)
	if len(f) < 3 {
		return "", time.Time{}, fmt.Errorf("unexpected identity %q", id)
	}
	sec, err := strconv.ParseInt(f[len(f)-2], 10, 64)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("identity %q: %w", id, err)
	}
	tz := f[len(f)-1]
	loc := time.UTC
	if t, err := time.Parse("-0700", tz); err == nil {
		_, off := t.Zone()
		loc = time.FixedZone(tz, off)
	}
	who := strings.TrimSpace(strings.TrimSuffix(id, f[len(f)-2]+" "+tz))
	return who, time.Unix(sec, 0).In(loc), nil
}

// RefName is the ref holding planRel's approval. Normal paths are kept as
// they are (a file cannot also be a directory, so two plans cannot clash);
// characters a ref may not hold are replaced, and then a hash of the real
// path is appended so two such paths still get distinct refs.
func RefName(planRel string) (string, error) {
	c := path.Clean(planRel)
	if planRel == "" || path.IsAbs(c) || c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("plan path %q is not inside the repository", planRel)
	}
	parts := strings.Split(c, "/")
	changed := false
	for i, p := range parts {
		q := []byte(p)
		for j, ch := range q {
			ok := ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_' || ch == '.'
			if !ok || (ch == '.' && (j == 0 || j == len(q)-1 || q[j-1] == '.')) {
				q[j] = '_'
			}
		}
		s := string(q)
		if strings.HasSuffix(s, ".lock") {
			s += "_"
		}
		changed = changed || s != p
		parts[i] = s
	}
	name := strings.Join(parts, "/")
	if changed {
		name += "-" + Hash([]byte(c))[:12]
	}
	return RefPrefix + name, nil
}
