"""*Monaco!* (``../shared/rules/monaco.txt``): toy cars on a road of card, every move measured in inches; driver
and car ratings 1–6, squads of at most four, seasons."""

from .. import Game, register


class Monaco(Game):
    def pack(self, settings, **options):
        return self.module("pack").build(settings, **options)

    def values(self, **facts):
        return self.module("summary").values(**facts)

    def tables(self, **facts):
        return self.module("summary").tables(**facts)

    def car_sheets(self, field, settings, **options):
        return self.module("cars").car_sheets(field, settings, **options)


GAME = register(
    Monaco(
        id="monaco",
        title="Monaco!",
        summary="road pieces and plan, inch tools, speed dials, cards, practice, race, season and squad sheets",
        order=30,
    )
)
