import unittest

from calc import sub
from testutil import check_equal


class TestSub(unittest.TestCase):
    def test_sub(self):
        check_equal(self, sub(5, 3), 2)
