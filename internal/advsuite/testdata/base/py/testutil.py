"""Assertions shared by the tests."""


def check_equal(case, got, want):
    case.assertEqual(got, want)
