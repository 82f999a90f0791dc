package secretscan

import (
	"bytes"
	"regexp"
)

type rule struct {
	id       string
	keywords [][]byte // lower case; the regexp runs only on content holding one
	src      string
	re       *regexp.Regexp // compiled from src on the first keyword hit
}

// contentRules lists the content rules, their regexps not yet compiled:
// compiling all of them cost ~1 ms of CPU per task commit (the task's new
// files are scanned), and most content holds none of their keywords.
func contentRules() []rule {
	// id, keywords and regex as in gitleaks v8.30.1 config/gitleaks.toml; the
	// trailing-delimiter groups are written (?:[\x60'"\s;]|\\[nr]|$) there.
	src := []struct {
		id       string
		keywords []string
		re       string
	}{
		{"private-key", []string{"-----begin"}, `(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----`},
		{"aws-access-token", []string{"a3t", "akia", "asia", "abia", "acca"}, `\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`},
		{"github-pat", []string{"ghp_"}, `ghp_[0-9a-zA-Z]{36}`},
		{"github-fine-grained-pat", []string{"github_pat_"}, `github_pat_\w{82}`},
		{"github-oauth", []string{"gho_"}, `gho_[0-9a-zA-Z]{36}`},
		{"github-app-token", []string{"ghu_", "ghs_"}, `(?:ghu|ghs)_[0-9a-zA-Z]{36}`},
		{"github-refresh-token", []string{"ghr_"}, `ghr_[0-9a-zA-Z]{36}`},
		{"gitlab-pat", []string{"glpat-"}, `glpat-[\w-]{20}`},
		{"slack-bot-token", []string{"xoxb"}, `xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*`},
		{"slack-user-token", []string{"xoxp", "xoxe"}, `xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}`},
		{"slack-app-token", []string{"xapp"}, `(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`},
		{"stripe-access-token", []string{"sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod"}, `\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"gcp-api-key", []string{"aiza"}, `\b(AIza[\w-]{35})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"openai-api-key", []string{"t3blbkfj"}, `\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"anthropic-api-key", []string{"sk-ant-api03"}, `\b(sk-ant-api03-[a-zA-Z0-9_\-]{93}AA)(?:[\x60'"\s;]|\\[nr]|$)`},
		{"anthropic-admin-api-key", []string{"sk-ant-admin01"}, `\b(sk-ant-admin01-[a-zA-Z0-9_\-]{93}AA)(?:[\x60'"\s;]|\\[nr]|$)`},
		{"npm-access-token", []string{"npm_"}, `(?i)\b(npm_[a-z0-9]{36})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"pypi-upload-token", []string{"pypi-ageichlwas5vcmc"}, `pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`},
		{"sendgrid-api-token", []string{"sg."}, `\b(SG\.(?i)[a-z0-9=_\-\.]{66})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"age-secret-key", []string{"age-secret-key-1"}, `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`},
		{"huggingface-access-token", []string{"hf_"}, `\b(hf_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)`},
		{"digitalocean-pat", []string{"dop_v1_"}, `\b(dop_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)`},
		{"shopify-access-token", []string{"shpat_"}, `shpat_[a-fA-F0-9]{32}`},
	}
	out := make([]rule, 0, len(src))
	for _, s := range src {
		r := rule{id: "content matches " + s.id, src: s.re}
		for _, k := range s.keywords {
			r.keywords = append(r.keywords, []byte(k))
		}
		out = append(out, r)
	}
	return out
}

// matches runs the rule's regexp if the content (lower, its lower-case copy)
// holds one of its keywords: a cheap filter, as in gitleaks, that keeps the
// scan of large files fast.
func (r *rule) matches(content, lower []byte) bool {
	for _, k := range r.keywords {
		if bytes.Contains(lower, k) {
			if r.re == nil {
				r.re = regexp.MustCompile(r.src)
			}
			return r.re.Match(content)
		}
	}
	return false
}
