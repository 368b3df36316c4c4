"""The paper-and-dice F1 game (``../shared/rules/f1-dice.txt``): an A3 board of 2 cm units, rear-wing car slips,
qualifying Q1–Q3 by team, the action roll on every marked unit, three points systems."""

from .. import BoardFacts, Game, register


class F1Dice(Game):
    def pack(self, settings, **options):
        return self.module("pack").build(settings, **options)

    def values(self, **facts):
        return self.module("summary").values(**facts)

    def tables(self, **facts):
        return self.module("summary").tables(**facts)

    def car_sheets(self, field, settings, **options):
        return self.module("cars").car_sheets(field, settings, **options)

    def board(
        self, spec_path, settings, teams=None, laps=None, pit=True, cars=None, start=None, grid=None, problems=None
    ):
        """The pack's board: a grid slot for every car of the field (``teams``, default the pack's; its first
        ``cars`` as ``pack --cars`` races them), a garage per team, the race length (``laps``) printed beside the
        start, the start line where ``start`` puts it. ``grid`` is refused: the field sets the grid."""
        from ...errors import InputError
        from ...teams import load_field

        if grid is not None:
            raise InputError(
                f"--grid {grid}: an f1-dice board has a grid slot for every car of the field",
                field="--grid",
                hint="race a smaller field with --cars N",
            )
        pack, facts = self.module("pack"), self.module("facts")
        field = load_field(teams or facts.DEFAULT_TEAMS)
        if cars is not None:
            field = pack.first_cars(field, cars)
        if laps is not None:
            facts.check_laps(laps)
        circuit = pack.board_circuit(
            spec_path, len(field.drivers), settings, garages=len(field.teams), pit=pit, start=start, problems=problems
        )
        return circuit, pack.board_sheet(circuit, pack.race_facts(circuit, laps))

    def board_facts(self, circuit, laps=None):
        from ...track.legend import ordinal

        facts = self.module("pack").race_facts(circuit, laps)
        race = f"{facts.laps_said}, {facts.race_units} units"
        return BoardFacts(figures=(("Race", race), ("Action roll", f"every {ordinal(facts.action_every)} unit")))

    def simulate(self, board, options, progress=None):
        return self.module("simulate").simulate(board, options, progress)


GAME = register(
    F1Dice(
        id="f1-dice",
        title="the paper-and-dice F1 game",
        summary="board, car slips, qualifying sheet, race reference card, standings",
        default=True,
        order=10,
    )
)
