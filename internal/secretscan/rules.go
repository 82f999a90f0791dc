package secretscan

import "regexp"

type rule struct {
	id string
	re *regexp.Regexp
}

// contentRules compiles the content rules; Scan does so once, on the first
// file it reads (most runs have no untracked files to read).
func contentRules() []rule {
	// id and regex as in gitleaks v8.30.1 config/gitleaks.toml; the
	// trailing-delimiter groups are written (?:[\x60'"\s;]|\\[nr]|$) there.
	src := []struct{ id, re string }{
		{"private-key", `(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----`},
		{"aws-access-token", `\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`},
		{"github-pat", `ghp_[0-9a-zA-Z]{36}`},
		{"github-fine-grained-pat", `github_pat_\w{82}`},
		{"github-oauth", `gho_[0-9a-zA-Z]{36}`},
		{"github-app-token", `(?:ghu|ghs)_[0-9a-zA-Z]{36}`},
		{"github-refresh-token", `ghr_[0-9a-zA-Z]{36}`},
		{"gitlab-pat", `glpat-[\w-]{20}`},
		{"slack-bot-token", `xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*`},
		{"slack-user-token", `xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}`},
		{"slack-app-token", `(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`},
		{"stripe-access-token", `\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"gcp-api-key", `\b(AIza[\w-]{35})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"openai-api-key", `\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"anthropic-api-key", `\b(sk-ant-api03-[a-zA-Z0-9_\-]{93}AA)(?:[\x60'"\s;]|\\[nr]|$)`},
		{"anthropic-admin-api-key", `\b(sk-ant-admin01-[a-zA-Z0-9_\-]{93}AA)(?:[\x60'"\s;]|\\[nr]|$)`},
		{"npm-access-token", `(?i)\b(npm_[a-z0-9]{36})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"pypi-upload-token", `pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`},
		{"sendgrid-api-token", `\b(SG\.(?i)[a-z0-9=_\-\.]{66})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"age-secret-key", `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`},
		{"huggingface-access-token", `\b(hf_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)`},
		{"digitalocean-pat", `\b(dop_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"shopify-access-token", `shpat_[a-fA-F0-9]{32}`},
	}
	out := make([]rule, 0, len(src))
	for _, s := range src {
		out = append(out, rule{id: "content matches " + s.id, re: regexp.MustCompile(s.re)})
	}
	return out
}
