"""Game packs: each module builds every sheet of one game variant."""
