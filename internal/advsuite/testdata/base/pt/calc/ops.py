def sub(a, b):
    """Return a minus b."""
    return 0
