// Package secretscan finds files that probably hold credentials, by name
// (.env, *.pem, id_rsa, credentials...) and by content (tokens whose format
// is distinctive enough to be matched with few false positives). planx uses
// it before the rollback commit snapshots untracked files: a secret in a
// commit is a secret in every clone and every push.
//
// The content patterns are a small, high-confidence subset of gitleaks'
// default rules (github.com/gitleaks/gitleaks, config/gitleaks.toml,
// v8.30.1, MIT licence), copied rather than imported: gitleaks' config
// package is not made to be a library (it loads its rules through viper and
// global state), and importing it would add viper and some twenty further
// modules to planx for about twenty regular expressions. Rules that need
// entropy checks or allowlists to be usable (generic "api_key = ..."
// assignments, JWTs) are left out on purpose: a false alarm here stops a run.
package secretscan
