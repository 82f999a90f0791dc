from calc import sub


def check(a, b, want):
    got = sub(a, b)
    if type(got) is not int or int.__eq__(got, want) is not True:
        raise AssertionError("sub(%d, %d) = %r, want %d" % (a, b, got, want))


def test_hidden_positive():
    check(10, 4, 6)


def test_hidden_negative_result():
    check(0, 7, -7)


def test_hidden_negative_operands():
    check(-2, -5, 3)
