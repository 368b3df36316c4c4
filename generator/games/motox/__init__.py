"""MotoX for the piecepack (``../shared/rules/motox.txt``): a print-and-play piecepack, a course builder and
checker, course diagrams and the riders' reference cards."""

from .. import Game, register

GAME = register(
    Game(
        id="motox",
        package=__name__,
        title="MotoX for the piecepack",
        summary="print-and-play piecepack, course diagram, a reference card per rider",
        order=40,
    )
)
