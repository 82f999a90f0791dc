package proc

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// running is a started process and the goroutines that copy its output and
// wait for it; Run drives it through start, wait and the sink's close.
type running struct {
	cmd    *exec.Cmd
	began  time.Time
	pr     *os.File      // read end of the output pipe
	out    *sink         // where the copy of pr goes
	copied chan struct{} // closed when the copy of pr has ended
	waited chan error    // cmd.Wait's result
}

// start runs argv as s describes, in a process group of its own, with its
// combined output copied to file, s.Live and the tail.
func start(s Spec, argv []string, file *os.File) (*running, error) {
	// Our own pipe rather than exec's: Wait then returns as soon as the main
	// process exits, and we decide how long to wait for stragglers holding
	// the write end.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	cmd.Stdin = s.Stdin
	cmd.Stdout = pw
	cmd.Stderr = pw
	cmd.WaitDelay = Grace // bounds the copy of a Stdin that is not a file
	setProcessGroup(cmd)
	if s.Wrap != nil {
		if err := s.Wrap(cmd); err != nil {
			pw.Close()
			pr.Close()
			return nil, fmt.Errorf("%s: confine: %w", s.Name, err)
		}
	}

	c := &running{
		cmd:    cmd,
		began:  time.Now(),
		pr:     pr,
		out:    &sink{file: file, live: s.Live, max: s.MaxOutput},
		copied: make(chan struct{}),
		waited: make(chan error, 1),
	}
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		return nil, fmt.Errorf("%s: start %s: %w", s.Name, argv[0], err)
	}
	// Only the child may hold the write end, or the copy below would never
	// see end of file.
	pw.Close()
	if s.Started != nil {
		s.Started(cmd.Process.Pid)
	}
	go func() {
		defer close(c.copied)
		_, _ = io.Copy(c.out, pr)
	}()
	go func() { c.waited <- cmd.Wait() }()
	return c, nil
}

// wait returns cmd.Wait's error once the main process has exited, the
// timeout (0: none) has passed or ctx has ended, marking the latter two in
// res. Either way it then stops what is left of the process group, so that
// nothing the child started outlives it, and waits for the output.
func (c *running) wait(ctx context.Context, timeout time.Duration, res *Result) error {
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	pgid := c.cmd.Process.Pid
	var waitErr error
	exited := false
	select {
	case waitErr = <-c.waited:
		exited = true
	case <-expired:
		res.TimedOut = true
	case <-ctx.Done():
		markCtx(res, ctx.Err())
	}
	if groupAlive(pgid) {
		stopGroup(pgid, Grace)
	}
	if !exited {
		waitErr = <-c.waited
	}
	res.Duration = time.Since(c.began)
	c.drain()
	return waitErr
}

// drain waits up to Grace for the copy of the output to end. The group is
// stopped by now, but a process that left it may still hold the write end
// of the pipe; its output is given up on rather than waited for forever.
func (c *running) drain() {
	select {
	case <-c.copied:
	case <-time.After(Grace):
		c.pr.Close()
		<-c.copied
	}
	c.pr.Close()
}

// sink fans the output out. A failing Live writer is ignored, since a broken
// progress view must not fail a step; a failing file is remembered, since the
// output is then lost.
type sink struct {
	file    *os.File
	live    io.Writer
	tail    tailBuffer
	err     error
	max     int64 // cap of the file's bytes; 0: none
	written int64
	dropped int64
}

func (s *sink) Write(p []byte) (int, error) {
	if s.file != nil && s.err == nil {
		keep := p
		if s.max > 0 && s.written+int64(len(p)) > s.max {
			keep = p[:max(s.max-s.written, 0)]
			s.dropped += int64(len(p) - len(keep))
		}
		if _, err := s.file.Write(keep); err != nil {
			s.err = err
		}
		s.written += int64(len(keep))
	}
	if s.live != nil {
		_, _ = s.live.Write(p)
	}
	return s.tail.Write(p)
}

// close notes at the end of the output file how much was dropped past the
// cap, and closes it. It returns the first write error, since the output
// is then incomplete.
func (s *sink) close() error {
	if s.dropped > 0 && s.err == nil {
		_, s.err = fmt.Fprintf(s.file, "\n[planx: output capped at %d bytes; %d more bytes dropped; their tail is in the execution log]\n", s.max, s.dropped)
	}
	if s.err != nil {
		return s.err
	}
	if s.file != nil {
		return s.file.Close()
	}
	return nil
}
