"""*Monaco!* (``../shared/rules/monaco.txt``): toy cars on a road of card, every move measured in inches; driver
and car ratings 1–6, squads of at most four, seasons."""

from .. import Game, register

GAME = register(
    Game(
        id="monaco",
        title="Monaco!",
        summary="driver and car cards, seasons",
        package=__name__,
        order=30,
    )
)
