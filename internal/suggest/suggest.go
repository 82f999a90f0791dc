// Package suggest finds the known word a misspelt one was meant to be, for
// "did you mean" hints on configuration keys.
package suggest

import "strings"

// synonyms are keys people write for planx's own, from other tools' habits.
var synonyms = map[string]string{
	"run": "command", "cmd": "command", "script": "command", "exec": "command",
	"title": "name", "id": "name",
	"timeout_seconds": "timeout", "time_limit": "timeout",
}

// Key returns the known key closest to word: a synonym, or a key at most a
// third of its length in edits away (two at most), or "" when none is close.
// Of keys equally close, one that word begins (a plural, "gate" for gates)
// is meant before one that merely looks alike ("date").
func Key(word string, known []string) string {
	w := strings.ToLower(strings.TrimSpace(word))
	if s, ok := synonyms[w]; ok && contains(known, s) {
		return s
	}
	best, bestD := "", 3
	for _, k := range known {
		d := distance(w, k)
		if d > max(1, len(k)/3) {
			continue
		}
		if d < bestD || d == bestD && strings.HasPrefix(k, w) && !strings.HasPrefix(best, w) {
			best, bestD = k, d
		}
	}
	return best
}

// Hint is a hint naming the closest key, or listing all of them.
func Hint(word string, known []string) string {
	if k := Key(word, known); k != "" {
		return "did you mean " + k + "? known keys: " + strings.Join(known, ", ")
	}
	return "known keys: " + strings.Join(known, ", ")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// distance is the edit distance between a and b counting a swap of two
// neighbours as one edit ("agnet" is one from "agent"), by bytes: keys are ASCII.
func distance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
