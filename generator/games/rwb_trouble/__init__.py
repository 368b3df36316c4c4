"""RWB TROUBLE (``../shared/rules/rwb-trouble.txt``): *Three Forms of TROUBLE*, an add-on for the stock-car game
*Red White & Blue Racin'* by Laurence Davis — the chip card computed from the race length and track, the ACCIDENT
table, the CRASH flow chart, WRECKS and a race tracker."""

from .. import Game, register

GAME = register(
    Game(
        id="rwb-trouble",
        package=__name__,
        title="RWB TROUBLE (Three Forms of TROUBLE for Red White & Blue Racin')",
        summary="chip card and chips for the race length and track, ACCIDENT table, CRASH flow chart, tracker",
        order=40,
    )
)
