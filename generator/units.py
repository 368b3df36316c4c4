"""Unit conversions. Inside Paddock everything is millimetres; these are used only at the edges."""

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def pt_to_mm(pt: float) -> float:
    """Typographic points to mm: used by composers to say font sizes the way printers do."""
    return pt / PT_PER_MM


def inch_to_mm(inches: float) -> float:
    return inches * MM_PER_INCH
