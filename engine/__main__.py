"""``python -m engine resolve FILE... [--check] [--end]``: resolve scenario files (RULES.md §9,
§9.1).

``--check`` compares each result with the file's ``after`` grid and its ``[experience_after]``,
and, for a file of section 10, its ``painted_after``, ``winners``/``draw`` and ``defeated``;
``--end`` also prints what the end of the turn found (colours, winners, defeats);
``--version`` says which build of the engine runs (compiled or pure). A file that cannot be
read, an illegal order or a refused deployment exits 2 with a message naming the rule.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import BUILD
from engine.errors import EngineError, IllegalDeployment, IllegalOrder
from engine.scenario import Played, Scenario, normalise_grid, painted_grid, parse_scenario


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    parser.add_argument("--version", action="version", version=f"engine: {BUILD}")
    commands = parser.add_subparsers(dest="command", required=True)
    resolve_cmd = commands.add_parser(
        "resolve", help="print the resolved grid of each scenario file"
    )
    resolve_cmd.add_argument("files", nargs="+", type=Path)
    resolve_cmd.add_argument(
        "--check",
        action="store_true",
        help="compare with each file's 'after' grid and [experience_after] table",
    )
    resolve_cmd.add_argument(
        "--end",
        action="store_true",
        help="also print the end of the turn of a section 10 file: colours, winners, defeats",
    )
    args = parser.parse_args(argv)

    status = 0
    for path in args.files:
        if len(args.files) > 1:
            print(f"== {path}")
        try:
            scenario = parse_scenario(path.read_text(encoding="utf-8"), str(path))
            played = scenario.play()
            after = played.after
            grid = normalise_grid(after.grid())
        except IllegalOrder as error:
            print(f"{path}: illegal order: {error}", file=sys.stderr)
            status = max(status, 2)
            continue
        except IllegalDeployment as error:
            print(f"{path}: illegal deployment: {error}", file=sys.stderr)
            status = max(status, 2)
            continue
        except (EngineError, OSError, UnicodeDecodeError) as error:
            print(f"{path}: {error}", file=sys.stderr)
            status = max(status, 2)
            continue
        print(grid)
        if args.end and scenario.variant:
            print(_end(scenario, played))
        if args.check:
            if scenario.after is None:
                print(f"{path}: no 'after' grid to check against", file=sys.stderr)
                status = max(status, 1)
            elif scenario.after != grid:
                print(
                    f"{path}: differs from 'after'\nexpected:\n{scenario.after}\ngot:\n{grid}",
                    file=sys.stderr,
                )
                status = max(status, 1)
            differences = scenario.experience_differences(after)
            if differences:
                print(
                    f"{path}: differs from [experience_after]\n" + "\n".join(differences),
                    file=sys.stderr,
                )
                status = max(status, 1)
            for difference in scenario.end_differences(played):
                print(f"{path}: {difference}", file=sys.stderr)
                status = max(status, 1)
    return status


def _end(scenario: Scenario, played: Played) -> str:
    """The end of the turn as the keys of §9.1 would write it."""
    lines = []
    if scenario.rules.goal.kind.value == "domains":
        lines.append(
            f'painted_after = """\n{painted_grid(played.after.battlefield, played.painted)}\n"""'
        )
    if scenario.has_goal and scenario.deployments is None:
        outcome = played.outcome
        winners = () if outcome is None else outcome.winners
        lines.append("winners = [" + ", ".join(f'"{d.letter}"' for d in winners) + "]")
        lines.append(f"draw = {str(outcome is not None and outcome.is_draw).lower()}")
    if scenario.deployments is None:
        lines.append("defeated = [" + ", ".join(f'"{d.letter}"' for d in played.defeated) + "]")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
