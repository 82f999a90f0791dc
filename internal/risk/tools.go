package risk

import (
	"path"
	"strings"
)

// toolRule matches `cmd sub...` (the first operands) to a level.
type toolRule struct {
	cmd   string
	subs  []string // any of these as the first operand ("a b" for two); empty: any use
	level Level
	rule  string
	what  string
}

var toolRules = []toolRule{
	// HIGH: publishing and deploying reach users and infrastructure.
	{"npm", []string{"publish", "unpublish", "deprecate", "dist-tag"}, HIGH, "publish", "publishes a package"},
	{"pnpm", []string{"publish"}, HIGH, "publish", "publishes a package"},
	{"yarn", []string{"publish", "npm publish"}, HIGH, "publish", "publishes a package"},
	{"bun", []string{"publish"}, HIGH, "publish", "publishes a package"},
	{"cargo", []string{"publish", "yank"}, HIGH, "publish", "publishes a crate"},
	{"twine", []string{"upload"}, HIGH, "publish", "uploads a Python package"},
	{"poetry", []string{"publish"}, HIGH, "publish", "publishes a Python package"},
	{"uv", []string{"publish"}, HIGH, "publish", "publishes a Python package"},
	{"flit", []string{"publish"}, HIGH, "publish", "publishes a Python package"},
	{"hatch", []string{"publish"}, HIGH, "publish", "publishes a Python package"},
	{"gem", []string{"push", "yank"}, HIGH, "publish", "publishes a gem"},
	{"gh", []string{"release"}, HIGH, "publish", "changes a GitHub release"},
	{"gh", []string{"pr merge", "repo delete", "repo edit", "secret", "variable", "workflow run"}, HIGH, "deploy", "changes the GitHub repository"},
	{"docker", []string{"push", "image push", "manifest push"}, HIGH, "publish", "pushes an image"},
	{"podman", []string{"push"}, HIGH, "publish", "pushes an image"},
	{"helm", []string{"push", "install", "upgrade", "uninstall", "delete", "rollback"}, HIGH, "deploy", "changes a cluster"},
	{"kubectl", []string{"apply", "delete", "create", "replace", "patch", "scale", "rollout", "set", "edit", "drain", "cordon", "label", "annotate", "exec", "run"}, HIGH, "deploy", "changes a cluster"},
	{"terraform", []string{"apply", "destroy", "import", "taint", "untaint", "state", "force-unlock"}, HIGH, "deploy", "changes infrastructure"},
	{"tofu", []string{"apply", "destroy", "import", "taint", "untaint", "state", "force-unlock"}, HIGH, "deploy", "changes infrastructure"},
	{"pulumi", []string{"up", "update", "destroy", "refresh", "import"}, HIGH, "deploy", "changes infrastructure"},
	{"cdk", []string{"deploy", "destroy"}, HIGH, "deploy", "changes infrastructure"},
	{"ansible-playbook", nil, HIGH, "deploy", "changes remote machines"},
	{"mvn", []string{"deploy"}, HIGH, "publish", "deploys artifacts"},
	{"goreleaser", []string{"release"}, HIGH, "publish", "publishes a release"},
	{"vercel", []string{"", "deploy", "--prod"}, HIGH, "deploy", "deploys"},
	{"netlify", []string{"deploy"}, HIGH, "deploy", "deploys"},
	{"firebase", []string{"deploy"}, HIGH, "deploy", "deploys"},
	{"wrangler", []string{"deploy", "publish"}, HIGH, "deploy", "deploys"},
	{"fly", []string{"deploy"}, HIGH, "deploy", "deploys"},
	{"flyctl", []string{"deploy"}, HIGH, "deploy", "deploys"},
	{"serverless", []string{"deploy", "remove"}, HIGH, "deploy", "deploys"},
	{"sls", []string{"deploy", "remove"}, HIGH, "deploy", "deploys"},
	{"dotnet", []string{"nuget push"}, HIGH, "publish", "publishes a package"},
	// MEDIUM: installs run other people's code and need the network.
	{"npm", []string{"install", "i", "ci", "add", "update", "upgrade", "exec", "x"}, MEDIUM, "install", "installs packages"},
	{"pnpm", []string{"install", "i", "add", "update", "up", "dlx"}, MEDIUM, "install", "installs packages"},
	{"yarn", []string{"", "install", "add", "upgrade", "up", "dlx"}, MEDIUM, "install", "installs packages"},
	{"bun", []string{"install", "i", "add", "x"}, MEDIUM, "install", "installs packages"},
	{"npx", nil, MEDIUM, "install", "downloads and runs a package"},
	{"bunx", nil, MEDIUM, "install", "downloads and runs a package"},
	{"uvx", nil, MEDIUM, "install", "downloads and runs a package"},
	{"pip", []string{"install", "download"}, MEDIUM, "install", "installs packages"},
	{"pipx", []string{"install", "run"}, MEDIUM, "install", "installs packages"},
	{"uv", []string{"add", "sync", "pip install", "tool install", "tool run", "run --with"}, MEDIUM, "install", "installs packages"},
	{"poetry", []string{"add", "install", "update"}, MEDIUM, "install", "installs packages"},
	{"pipenv", []string{"install", "sync"}, MEDIUM, "install", "installs packages"},
	{"conda", []string{"install", "create"}, MEDIUM, "install", "installs packages"},
	{"mamba", []string{"install", "create"}, MEDIUM, "install", "installs packages"},
	{"go", []string{"get", "install", "mod download"}, MEDIUM, "install", "downloads Go modules"},
	{"cargo", []string{"install", "add", "update", "fetch"}, MEDIUM, "install", "installs crates"},
	{"gem", []string{"install", "update"}, MEDIUM, "install", "installs gems"},
	{"bundle", []string{"", "install", "update", "add"}, MEDIUM, "install", "installs gems"},
	{"composer", []string{"install", "require", "update"}, MEDIUM, "install", "installs packages"},
	{"apt-get", []string{"install", "upgrade", "dist-upgrade", "update"}, MEDIUM, "install", "installs system packages"},
	{"apt", []string{"install", "upgrade", "update"}, MEDIUM, "install", "installs system packages"},
	{"yum", []string{"install", "update"}, MEDIUM, "install", "installs system packages"},
	{"dnf", []string{"install", "update"}, MEDIUM, "install", "installs system packages"},
	{"apk", []string{"add"}, MEDIUM, "install", "installs system packages"},
	{"brew", []string{"install", "upgrade", "tap", "reinstall"}, MEDIUM, "install", "installs system packages"},
	{"snap", []string{"install"}, MEDIUM, "install", "installs system packages"},
	{"terraform", []string{"init", "plan"}, MEDIUM, "network", "talks to providers and state backends"},
	{"docker", []string{"pull", "login"}, MEDIUM, "network", "pulls from a registry"},
	// MEDIUM: plain network access.
	{"curl", nil, MEDIUM, "network", "talks to the network"},
	{"wget", nil, MEDIUM, "network", "talks to the network"},
	{"ssh", nil, MEDIUM, "network", "connects to a remote machine"},
	{"scp", nil, MEDIUM, "network", "copies to or from a remote machine"},
	{"sftp", nil, MEDIUM, "network", "copies to or from a remote machine"},
	{"nc", nil, MEDIUM, "network", "opens network connections"},
	{"ncat", nil, MEDIUM, "network", "opens network connections"},
	{"netcat", nil, MEDIUM, "network", "opens network connections"},
	{"socat", nil, MEDIUM, "network", "opens network connections"},
	{"telnet", nil, MEDIUM, "network", "opens network connections"},
	{"ftp", nil, MEDIUM, "network", "talks to the network"},
	{"gh", nil, MEDIUM, "network", "talks to GitHub"},
	{"aws", nil, MEDIUM, "network", "talks to a cloud API"},
	{"gcloud", nil, MEDIUM, "network", "talks to a cloud API"},
	{"az", nil, MEDIUM, "network", "talks to a cloud API"},
	{"kubectl", nil, MEDIUM, "network", "talks to a cluster"},
	{"helm", nil, MEDIUM, "network", "talks to a cluster or chart repository"},
}

// tools judges commands from toolRules, rsync and downloads.
func (a *analyzer) tools(s site, name string, args []arg) {
	if name == "rsync" {
		a.rsync(s, args)
		return
	}
	ops := parseFlags(args[1:], "CoOTdFPXHu").operands
	for _, r := range toolRules {
		if r.cmd == name && matchSub(r.subs, ops) {
			a.report(r.level, r.rule, s, name+" "+r.what)
			break
		}
	}
	if downloaders[name] || isNetwork(name) {
		a.network(s, name, args)
	}
}

func isNetwork(name string) bool {
	switch name {
	case "ssh", "scp", "sftp", "nc", "ncat", "netcat", "socat", "telnet", "ftp":
		return true
	}
	return false
}

func matchSub(subs []string, ops []arg) bool {
	if subs == nil {
		return true
	}
	for _, sub := range subs {
		if sub == "" {
			if len(ops) == 0 {
				return true
			}
			continue
		}
		words := strings.Fields(sub)
		if len(ops) >= len(words) {
			ok := true
			for i, w := range words {
				ok = ok && ops[i].s == w
			}
			if ok {
				return true
			}
		}
	}
	return false
}

func indexOf(args []arg, s string) int {
	for i, x := range args {
		if x.s == s {
			return i
		}
	}
	return -1
}

// network looks at what a network command sends and saves: a secret file
// sent out is HIGH, a file it downloads is remembered so running it later
// counts as running downloaded code.
func (a *analyzer) network(s site, name string, args []arg) {
	for i, x := range args[1:] {
		v := x.s
		if _, after, ok := strings.Cut(v, "=@"); ok {
			v = after
		}
		v = strings.TrimPrefix(v, "@")
		if v != x.s || (i > 0 && (args[i].s == "-T" || args[i].s == "--upload-file" || args[i].s == "-i")) || name == "scp" {
			if secretFile(v) && !(name == "ssh" || name == "scp" && args[i].s == "-i") {
				a.report(HIGH, "secret-file", s, name+" sends a secrets or credentials file")
			}
		}
	}
	if !downloaders[name] {
		return
	}
	for i, x := range args {
		var out string
		switch {
		case (x.s == "-o" || x.s == "--output" || x.s == "-O" && name == "wget" || x.s == "--output-document") && i+1 < len(args):
			out = args[i+1].s
		case strings.HasPrefix(x.s, "--output-document="):
			out = strings.TrimPrefix(x.s, "--output-document=")
		case name == "curl" && strings.HasPrefix(x.s, "-") && !strings.HasPrefix(x.s, "--") && strings.HasSuffix(x.s, "o") && i+1 < len(args):
			out = args[i+1].s
		case name == "curl" && (x.s == "-O" || x.s == "--remote-name"):
			for _, u := range args[i+1:] {
				if strings.Contains(u.s, "://") {
					out = path.Base(u.s)
					break
				}
			}
		}
		if out != "" && out != "-" {
			a.downloaded[path.Clean(out)] = true
			a.write(s, arg{s: out}, name+" saves")
		}
	}
}

// rsync is a network tool only with a remote side (host:path, rsync://).
func (a *analyzer) rsync(s site, args []arg) {
	ops := parseFlags(args[1:], "e").operands
	for _, x := range ops {
		before, _, found := strings.Cut(x.s, ":")
		if strings.Contains(x.s, "://") || (found && before != "" && !strings.Contains(before, "/")) {
			a.report(MEDIUM, "network", s, "rsync copies to or from a remote machine")
			return
		}
	}
	if len(ops) >= 2 {
		a.write(s, ops[len(ops)-1], "rsync writes")
	}
}
