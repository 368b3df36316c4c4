"""RWB TROUBLE (``../shared/rules/rwb-trouble.txt``): *Three Forms of TROUBLE*, an add-on for the stock-car game
*Red White & Blue Racin'* by Laurence Davis — the chip card computed from the race length and track, the ACCIDENT
table, the CRASH flow chart, WRECKS and a race tracker."""

from .. import Game, register


class RwbTrouble(Game):
    def pack(self, settings, **options):
        return self.module("pack").build(settings, **options)

    def values(self, **facts):
        return self.module("summary").values(**facts)

    def tables(self, **facts):
        return self.module("summary").tables(**facts)


GAME = register(
    RwbTrouble(
        id="rwb-trouble",
        title="RWB TROUBLE (Three Forms of TROUBLE for Red White & Blue Racin')",
        summary="chip card and chips for the race length and track, ACCIDENT table, CRASH flow chart, tracker",
        order=40,
    )
)
