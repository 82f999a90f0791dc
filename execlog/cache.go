package execlog

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"time"
)

// A run writes its log and its state (which holds the log) at every task:
// late in a long run most of what they hold is the entries of tasks long
// done, which do not change. Each entry's rendered lines and JSON are kept
// under a fingerprint of everything the entry holds (sum), so that a write
// costs what the entries that changed cost (and a copy of the others'
// bytes), not a render of the whole run: per-task cost stays flat over a
// plan of thousands of tasks (bench/pertask.sh).

// cache is a log's rendered entries, by task and fingerprint.
type cache struct {
	seed     maphash.Seed
	entries  map[cacheKey]*entry
	jsonSize int // of the tasks' JSON when last made: room to make it again
}

type cacheKey struct {
	id  string
	sum uint64
}

// entry is one task entry's bytes, each made when first asked for.
type entry struct {
	row, section, json []byte
	// matrix is the entry's row of the gate matrix for the columns names.
	matrix []byte
	names  string
}

// entry is t's cached bytes, made empty when t changed since they were
// made. Entries no task holds any more are dropped once they outnumber
// the tasks.
func (l *Log) entry(t *Task) *entry {
	c := l.cached()
	k := cacheKey{t.ID, t.sum(c.seed)}
	if e, ok := c.entries[k]; ok {
		return e
	}
	if len(c.entries) > 2*len(l.Tasks)+16 {
		c.entries = map[cacheKey]*entry{}
	}
	e := &entry{}
	c.entries[k] = e
	return e
}

// cached is l's cache, made when first used.
func (l *Log) cached() *cache {
	if l.cache == nil {
		l.cache = &cache{seed: maphash.MakeSeed(), entries: map[cacheKey]*entry{}}
	}
	return l.cache
}

// entries are the cached bytes of l's tasks, in order.
func (l *Log) entries() []*entry {
	es := make([]*entry, len(l.Tasks))
	for i := range l.Tasks {
		es[i] = l.entry(&l.Tasks[i])
	}
	return es
}

// rowOf is t's line in the log's task table; e is t's entry.
func (e *entry) rowOf(t *Task) []byte {
	if e.row == nil {
		var b strings.Builder
		t.row(&b)
		e.row = []byte(b.String())
	}
	return e.row
}

// sectionOf is t's section of the log; e is t's entry.
func (e *entry) sectionOf(t *Task) []byte {
	if e.section == nil {
		var b strings.Builder
		t.render(&b)
		e.section = []byte(b.String())
	}
	return e.section
}

// matrixOf is t's row of the gate matrix with the columns names; e is
// t's entry.
func (e *entry) matrixOf(t *Task, names []string) []byte {
	key := strings.Join(names, "\x00")
	if e.matrix == nil || e.names != key {
		var b strings.Builder
		t.matrixRow(&b, names)
		e.matrix, e.names = []byte(b.String()), key
	}
	return e.matrix
}

// AppendTasksJSON appends the JSON array of l's task entries to dst, as
// encoding/json writes l.Tasks, encoding only the entries that changed
// since the last call.
func (l *Log) AppendTasksJSON(dst []byte) ([]byte, error) {
	dst = slices.Grow(dst, l.cached().jsonSize)
	start := len(dst)
	dst = append(dst, '[')
	for i, e := range l.entries() {
		if e.json == nil {
			b, err := json.Marshal(&l.Tasks[i])
			if err != nil {
				return nil, err
			}
			e.json = b
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e.json...)
	}
	dst = append(dst, ']')
	l.cache.jsonSize = len(dst) - start
	return dst, nil
}

// sum is a fingerprint of every field of t (TestSumCoversEveryField
// holds it to that): equal sums, equal entries.
func (t *Task) sum(seed maphash.Seed) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	strs(&h, t.ID, t.Label, t.Title, string(t.Status), t.Executor, t.Sandbox)
	list(&h, t.Outside)
	nums(&h, t.Cost.In, t.Cost.Out, int64(math.Float64bits(t.Cost.USD)), bit(t.Cost.HasUSD))
	strs(&h, t.Review, t.Agent)
	list(&h, t.Hidden)
	strs(&h, t.Commit)
	list(&h, t.Files)
	nums(&h, int64(len(t.Commands)))
	for _, c := range t.Commands {
		strs(&h, c.Name, c.Command, c.Tail)
		nums(&h, int64(c.ExitCode), int64(c.Duration), bit(c.TimedOut))
	}
	nums(&h, int64(len(t.Gates)))
	for _, g := range t.Gates {
		strs(&h, g.Name, g.Command, g.Tail, g.OutputPath, g.Tests)
		nums(&h, bit(g.Passed), int64(g.ExitCode), int64(g.Duration), bit(g.TimedOut), bit(g.Cached), bit(g.Overridden))
		list(&h, g.Fixed)
		list(&h, g.Known)
	}
	times(&h, t.Started, t.Finished)
	strs(&h, t.Failure)
	nums(&h, int64(t.Attempts))
	return h.Sum64()
}

func strs(h *maphash.Hash, ss ...string) {
	for _, s := range ss {
		nums(h, int64(len(s)))
		h.WriteString(s)
	}
}

// list hashes a nil list apart from an empty one: JSON tells them apart.
func list(h *maphash.Hash, ss []string) {
	if ss == nil {
		nums(h, -1)
		return
	}
	nums(h, int64(len(ss)))
	strs(h, ss...)
}

func nums(h *maphash.Hash, ns ...int64) {
	var b [8]byte
	for _, n := range ns {
		for i := range b {
			b[i] = byte(n >> (8 * i))
		}
		_, _ = h.Write(b[:])
	}
}

// times hashes what the log keeps of a time: its instant and its zone.
func times(h *maphash.Hash, ts ...time.Time) {
	for _, t := range ts {
		_, off := t.Zone()
		nums(h, t.UnixNano(), int64(off), bit(t.IsZero()))
		strs(h, t.Location().String())
	}
}

func bit(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
