// Package approval records, in the repository itself, that a person accepted
// a plan as it stands, and tells later whether the plan is still the text
// that was accepted.
//
// An approval is a blob holding a small text record (format version, plan
// path, sha256 of the plan's bytes with checkbox states blanked (see Hash),
// approver, time, the highest risk level)
// followed by the plan's full text, and the ref
// refs/planx/approvals/<plan path> pointing straight at that blob. Refs may
// name blobs; doing so keeps an approval out of every branch's history and
// out of the work tree, while anybody with the repository can read it:
//
//	git cat-file blob refs/planx/approvals/memory-bank/plan/x.md
//
// and it travels with an explicit refspec:
//
//	git push origin 'refs/planx/approvals/*:refs/planx/approvals/*'
//	git fetch origin 'refs/planx/approvals/*:refs/planx/approvals/*'
//
// Only the latest approval of a plan is kept: approving again replaces the
// ref (compare-and-swap, so two approvers racing do not silently overwrite
// each other). Keeping the approved text, not only its hash, is what lets
// Check show what changed since.
package approval
