package space

import "sync"

// Prober asks once whether spaces work here (Probe) and keeps the answer,
// so that the parts of a run that need spaces — the agents', the steps',
// the judge's — share one probe, which may start early, in the
// background (Start), and be waited for by whoever needs it first.
type Prober struct {
	near    string
	once    sync.Once // the probe; a second caller waits for the first
	err     error
	mu      sync.Mutex
	started bool
}

// NewProber is a probe for spaces over the work tree near (Probe).
func NewProber(near string) *Prober {
	return &Prober{near: near}
}

// Start begins the probe in the background if it has not begun.
func (p *Prober) Start() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		p.started = true
		go p.once.Do(p.run)
	}
}

// Err is the probe's answer, probing now if nobody started it: nil when
// spaces work here.
func (p *Prober) Err() error {
	if p == nil {
		return ErrUnsupported
	}
	p.mu.Lock()
	p.started = true
	p.mu.Unlock()
	p.once.Do(p.run)
	return p.err
}

// Started reports whether the probe has begun (Start or Err).
func (p *Prober) Started() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// run probes, or takes a probe that passed before over the same state
// directory (probecache.go).
func (p *Prober) run() {
	parent := ""
	if p.near != "" {
		if parent, p.err = StateParent(p.near); p.err != nil {
			return
		}
		if probeRemembered(parent) {
			return
		}
	}
	if p.err = Probe(p.near); p.err == nil && parent != "" {
		rememberProbe(parent)
	}
}
