package command

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildResolve(t *testing.T) {
	info := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"},
	}}
	cases := []struct {
		in   Build
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{Build{}, info, true, "v1.2.3 (commit abc123-dirty)"},
		{Build{Version: "v9.0.0", Commit: "fff"}, info, true, "v9.0.0 (commit fff)"}, // ldflags win
		{Build{}, nil, false, "(devel) (commit unknown)"},
		{Build{Version: "v2"}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "v2 (commit unknown)"},
	}
	for _, c := range cases {
		if got := c.in.resolve(c.info, c.ok).String(); got != c.want {
			t.Errorf("%+v.resolve = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestVersionAndCompletion(t *testing.T) {
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := MainWithBuild(context.Background(), append([]string{"planx"}, args...),
			&IO{In: strings.NewReader(""), Out: &out, Err: &errb}, Build{Version: "v1.2.3", Commit: "abc123"})
		return code, out.String() + errb.String()
	}
	if code, out := run("--version"); code != 0 || out != "planx version v1.2.3 (commit abc123)\n" {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	if code, out := run("version"); code != 0 || out != "planx version v1.2.3 (commit abc123)\n" {
		t.Errorf("version: exit %d, %q", code, out)
	}
	for shell, want := range map[string]string{
		"bash": "complete -o bashdefault -o default -F",
		"zsh":  "#compdef planx",
		"fish": "complete -c planx",
	} {
		code, out := run("completion", shell)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("completion %s: exit %d, output lacks %q:\n%.300s", shell, code, want, out)
		}
	}
	if code, out := run("--help"); code != 0 || !strings.Contains(out, "completion") || !strings.Contains(out, "--version") {
		t.Errorf("help does not list completion and --version: %s", out)
	}
	// The scripts ask planx for candidates. (The root's own answer reads
	// os.Args, which in a test are the test binary's, so ask a subcommand.)
	if code, out := run("hook", "--generate-shell-completion"); code != 0 || !strings.Contains(out, "install") || strings.Contains(out, "\npre-push:") {
		t.Errorf("completion candidates: exit %d\n%s", code, out)
	}
}
