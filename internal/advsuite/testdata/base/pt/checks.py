"""Assertions shared by the tests."""


def expect_equal(got, want):
    assert got == want, "got %r, want %r" % (got, want)
