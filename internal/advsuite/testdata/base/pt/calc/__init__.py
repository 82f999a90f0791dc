"""Arithmetic."""

from calc.ops import sub

__all__ = ["sub"]
