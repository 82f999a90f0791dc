// Package records is planx's local records of a repository: the trees its
// gates passed on and the task commits it made, plain files under the
// common git dir that verify and a resume read, and the mark that tells
// the records an executor wrote from planx's own. It is planx's
// bookkeeping, not git: it runs no git and takes the paths under the git
// directory from gitops.Repo.
package records
