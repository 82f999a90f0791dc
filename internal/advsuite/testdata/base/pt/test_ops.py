import pathlib

from calc import sub
from checks import expect_equal

DATA = pathlib.Path(__file__).parent / "data" / "sub_cases.txt"


def test_sub():
    expect_equal(sub(5, 3), 2)


def test_sub_cases():
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            a, b, want = (int(x) for x in line.split())
            expect_equal(sub(a, b), want)
