"""Composers: they know sheets (layout, cut lines, print checks) and produce scenes; never file formats."""
