"""MotoX for the piecepack (``../shared/rules/motox.txt``): a print-and-play piecepack, a course builder and
checker, course diagrams and the riders' reference cards."""

from .. import Game, register


class MotoX(Game):
    def pack(self, settings, **options):
        return self.module("pack").build(settings, **options)

    def values(self, **facts):
        return self.module("summary").values(**facts)

    def tables(self, **facts):
        return self.module("summary").tables(**facts)


GAME = register(
    MotoX(
        id="motox",
        title="MotoX for the piecepack",
        summary="print-and-play piecepack, course diagram, a reference card per rider",
        order=40,
    )
)
