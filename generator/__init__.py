"""Paddock: print-ready boards, cars, scorecards and reference cards for tabletop racing games."""

__version__ = "0.1.0"
