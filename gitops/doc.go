// Package gitops is the only code in planx that runs git. Writes go through
// the git CLI so index.lock, hooks, reflog, signing, includes, autocrlf, LFS
// and every ignore file are honoured; cheap reads may use go-git in-process.
package gitops
