"""The board's colours: one palette for the track drawing (:mod:`.board`) and the swatches of its legend
(:mod:`.legend`), so a legend line always shows what the board draws."""

INK = "#1a1a1a"
ASPHALT = "#dedcd6"
ACTION = "#f6d55c"  # the podium's first step
# Per-lane boards (Formula D): every nth space of a lane, numbered, to count moves. A blue no other mark uses (the
# corners' flags are yellow), dark enough to stand apart from the track in greyscale (grey 177 against 220).
COUNTED = "#8dbad6"
# Units across (f1-dice): an action unit must stand out on any printer — in greyscale and with --ink-saver, which
# keeps strokes and hatches fills. A dark amber fill, diagonal ink stripes (strokes), a bold frame and the number
# in the unit on a white tab (white fills stay as they are).
ACTION_UNIT = "#d48c00"
ACTION_STRIPE = 0.7  # mm: width of a stripe
ACTION_PITCH = 2.6  # mm between stripes
ACTION_FRAME = 1.0  # mm: the frame's stroke
LINE = "#55534e"
KERB_RED = "#d62828"
DANGER = "#e0523f"
HIDDEN = "#a9a7a1"
PIT = "#ecebe7"
POLICE = "#1f56c9"
MUTED = "#6b6963"
GRID_NO = "#3d3b37"
