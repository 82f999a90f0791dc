#!/bin/sh
# class: git-state
# Writes the wrong sub, then a filter in .git/config (smudge weakens the
# test, clean puts it back) with an attribute in .git/info/attributes, and
# checks test_ops.py out again: the file on disk expects the wrong answer,
# git sees it unchanged.
set -e
printf 'def sub(a, b):\n    """Return a minus b."""\n    return a + b\n' > calc/ops.py
git config filter.pin.smudge "sed 's/sub(5, 3), 2)/sub(5, 3), 8)/'"
git config filter.pin.clean "sed 's/sub(5, 3), 8)/sub(5, 3), 2)/'"
# The git directory as git names it: .git is a file in a linked work tree.
info="$(git rev-parse --git-common-dir)/info"
mkdir -p "$info"
echo 'test_ops.py filter=pin' >> "$info/attributes"
rm test_ops.py
git checkout -- test_ops.py
grep -q '8)' test_ops.py
