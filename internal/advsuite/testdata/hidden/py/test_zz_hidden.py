import unittest

from calc import sub


class TestHiddenSub(unittest.TestCase):
    def test_more(self):
        for a, b, want in [(10, 4, 6), (0, 7, -7), (-2, -5, 3), (100, 1, 99)]:
            got = sub(a, b)
            if type(got) is not int or got != want:
                raise AssertionError("sub(%d, %d) = %r, want %d" % (a, b, got, want))
