package sandbox

import (
	"fmt"
	"strings"
)

// SeatbeltArgs are the sandbox-exec arguments (before "--" and the
// program) that confine a process on macOS to policy p, in the shape
// OpenAI Codex CLI's Seatbelt policy has: reading, processes and the
// network as the user has them; writing only beneath the writable roots,
// never beneath a read-only path (the git directory inside the work tree),
// except where a writable root lies inside one; no signal to a process
// outside the sandbox. Paths are parameters (-D), never spliced into the
// profile's text, so no path can change its meaning.
//
// There is no macOS machine where planx is built and tested: the profile
// is tested as text only, and New does not use it yet (docs/sandbox.md).
func SeatbeltArgs(p Policy) []string {
	p = p.clean()
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n")
	b.WriteString("(allow file-write-data (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/tty\"))\n")
	args := []string{"-p", ""}
	param := func(kind string, i int, path string) string {
		name := fmt.Sprintf("%s_%d", kind, i)
		args = append(args, "-D"+name+"="+path)
		return fmt.Sprintf("(param %q)", name)
	}
	var notRO []string
	for i, ro := range p.ReadOnly {
		notRO = append(notRO, fmt.Sprintf("(require-not (subpath %s))", param("READ_ONLY", i, ro)))
	}
	for i, w := range p.Writable {
		root := param("WRITABLE_ROOT", i, w)
		inside := false
		for _, ro := range p.ReadOnly {
			inside = inside || within(w, ro)
		}
		if inside || len(notRO) == 0 {
			fmt.Fprintf(&b, "(allow file-write* (subpath %s))\n", root)
			continue
		}
		fmt.Fprintf(&b, "(allow file-write* (require-all (subpath %s) %s))\n", root, strings.Join(notRO, " "))
	}
	b.WriteString("(deny signal)\n(allow signal (target same-sandbox))\n")
	args[1] = b.String()
	return args
}
