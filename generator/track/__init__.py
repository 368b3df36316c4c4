"""Circuits: spec models, centre-line geometry, lanes, units, kerbs, pit lane, validation, board sheets."""
