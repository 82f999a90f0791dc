"""The ground truth's test run: the standard library's unittest (imported
before the checkout is on sys.path, so nothing in it shadows it) runs the
named test modules; the nonce of $ADV_NONCE is printed only when all of
them ran and passed."""
import os
import sys
import unittest

sys.path.insert(0, os.getcwd())

names = sys.argv[2:]
want = int(sys.argv[1])
suite = unittest.defaultTestLoader.loadTestsFromNames(names)
result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2).run(suite)
if result.wasSuccessful() and result.testsRun == want:
    print("unit-ok:" + os.environ.get("ADV_NONCE", ""))
