package secretscan

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Limits keep a scan of a large untracked tree cheap: content is read only
// from the first MaxFiles regular files, MaxFileBytes of each.
const (
	MaxFileBytes = 1 << 20
	MaxFiles     = 5000
)

// Finding is one file that looks like it holds a secret.
type Finding struct {
	Path string // as given to Scan
	Why  string // "file name (.env*)" or the rule that matched its content
}

// Scan looks at the files paths (slash-separated, relative to root) and
// returns those that look like secrets, in the order given.
func Scan(root string, paths []string) ([]Finding, error) {
	var out []Finding
	var rules []rule
	read := 0
	for _, p := range paths {
		if why := byName(p); why != "" {
			out = append(out, Finding{Path: p, Why: "file name (" + why + ")"})
			continue
		}
		if read >= MaxFiles {
			continue
		}
		if rules == nil {
			rules = contentRules()
		}
		why, ok, err := byContent(filepath.Join(root, filepath.FromSlash(p)), rules)
		if err != nil {
			return out, err
		}
		if ok {
			read++
		}
		if why != "" {
			out = append(out, Finding{Path: p, Why: why})
		}
	}
	return out, nil
}

// byName says which name rule p matches, or "".
func byName(p string) string {
	base := path.Base(p)
	lower := strings.ToLower(base)
	for _, sfx := range []string{".example", ".sample", ".template", ".dist", ".pub"} {
		if strings.HasSuffix(lower, sfx) {
			return "" // templates and public keys are meant to be shared
		}
	}
	switch {
	case lower == ".env" || strings.HasPrefix(lower, ".env."):
		return ".env*"
	case strings.HasPrefix(lower, "id_rsa") || strings.HasPrefix(lower, "id_ed25519") ||
		strings.HasPrefix(lower, "id_ecdsa") || strings.HasPrefix(lower, "id_dsa"):
		return "id_rsa*"
	case strings.HasPrefix(lower, "credentials") && !sourceFile(lower):
		return "credentials*"
	case lower == ".netrc" || lower == ".pypirc" || lower == ".git-credentials" || lower == ".htpasswd":
		return base
	}
	switch path.Ext(lower) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk":
		return "*" + path.Ext(lower)
	}
	return ""
}

// byContent reads the start of a regular file and returns the first rule
// its content matches; ok says whether the file was read.
func byContent(file string, rules []rule) (why string, ok bool, err error) {
	fi, err := os.Lstat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil // gone since git listed it
	}
	if err != nil || !fi.Mode().IsRegular() {
		return "", false, err
	}
	f, err := os.Open(file)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes))
	if err != nil {
		return "", true, err
	}
	lower := bytes.ToLower(b)
	for i := range rules {
		if rules[i].matches(b, lower) {
			return rules[i].id, true, nil
		}
	}
	return "", true, nil
}

// sourceFile reports program source and documentation (credentials.go,
// credentials_test.py, credentials.md): code about credentials, whose
// content the patterns still check.
func sourceFile(name string) bool {
	switch path.Ext(name) {
	case ".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".java", ".kt", ".rb", ".rs", ".c", ".h",
		".cc", ".cpp", ".hpp", ".cs", ".swift", ".php", ".scala", ".ex", ".exs", ".md", ".rst", ".adoc":
		return true
	}
	return false
}
