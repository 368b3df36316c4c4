"""*Monaco!* (``../shared/rules/monaco.txt``): toy cars on a road of card, every move measured in inches; driver
and car ratings 1–6, squads of at most four, seasons."""

from .. import Game, register

GAME = register(
    Game(
        id="monaco",
        package=__name__,
        title="Monaco!",
        summary="road pieces and plan, inch tools, speed dials, cards, practice, race, season and squad sheets",
        order=30,
    )
)
