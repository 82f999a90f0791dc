package hall

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/planx-dev/planx/planparse"
)

// book is a Desk that keeps what it is told.
type book struct {
	lines []string
	saved int
}

func (b *book) Issue(id planparse.TaskID, msg, res string) {
	b.lines = append(b.lines, fmt.Sprintf("issue %s %s %s", id, msg, res))
}
func (b *book) Say(id planparse.TaskID, msg string) {
	b.lines = append(b.lines, "say "+string(id)+" "+msg)
}
func (b *book) Ask(string) bool { return true }
func (b *book) Save() error     { b.saved++; return nil }
func (b *book) Now() time.Time  { return time.Unix(7, 0) }

func TestWarnRecordsAndSays(t *testing.T) {
	var b book
	Warn(&b, "T001", "odd")
	want := []string{"issue T001 odd ", "say T001 odd"}
	if fmt.Sprint(b.lines) != fmt.Sprint(want) {
		t.Fatalf("lines = %q, want %q", b.lines, want)
	}
}

// A wave's desk asks nobody, saves nothing for one task, and its tasks'
// reports all arrive (the race detector checks the lock).
func TestInWave(t *testing.T) {
	var b book
	var mu sync.Mutex
	d := InWave(&b, &mu)
	if d.Ask("go on?") {
		t.Fatal("a wave's task was answered yes")
	}
	if err := d.Save(); err != nil || b.saved != 0 {
		t.Fatalf("Save = %v, saved %d times; want nothing saved", err, b.saved)
	}
	if !d.Now().Equal(time.Unix(7, 0)) {
		t.Fatalf("Now = %v", d.Now())
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Warn(d, planparse.TaskID(fmt.Sprintf("T%03d", i)), "x")
		}()
	}
	wg.Wait()
	if len(b.lines) != 40 {
		t.Fatalf("%d lines, want 40", len(b.lines))
	}
}
