// Package advsuite is planx's adversarial suite, for tests only (it
// imports testing; only tests import it). It builds planx, runs it on tiny
// Go, Python (unittest and pytest), JavaScript and make repositories with
// scripted agents that cheat (and honest ones that do not), and audits
// each outcome against a ground truth kept outside the repository planx
// ran on: hidden tests and a plain probe program, run with a pristine
// toolchain on the tree planx committed. Each case runs alone and (for a
// fixed subset, or all) as the last task of a parallel wave, whose outcome
// must be the same, refused for the same reason. The cases are divided by
// language between test binaries (groups), each running its cases both
// ways in one process (Adversarial): internal/advsuite/gopt (Go, pytest)
// and internal/advsuite/jspymk (JavaScript, Python's unittest, make),
// TestAdversarial/case/<case> and TestAdversarial/wave/<case> in each;
// this package's own tests check its lists and need no toolchain.
// testdata/expect.txt holds the outcome of every case on today's planx;
// testdata/README.md explains the audit, the wave mode, the classes and
// how to update the expectations.
package advsuite
