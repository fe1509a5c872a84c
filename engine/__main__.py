"""``python -m engine resolve FILE... [--check]``: resolve scenario files (RULES.md §9).

``--check`` compares each result with the file's ``after`` grid and its ``[experience_after]``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.errors import EngineError, IllegalOrder
from engine.scenario import normalise_grid, parse_scenario


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
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
    args = parser.parse_args(argv)

    status = 0
    for path in args.files:
        if len(args.files) > 1:
            print(f"== {path}")
        try:
            scenario = parse_scenario(path.read_text(encoding="utf-8"), str(path))
            after = scenario.run().after
            grid = normalise_grid(after.grid())
        except IllegalOrder as error:
            print(f"{path}: illegal order: {error}", file=sys.stderr)
            status = max(status, 2)
            continue
        except (EngineError, OSError, UnicodeDecodeError) as error:
            print(f"{path}: {error}", file=sys.stderr)
            status = max(status, 2)
            continue
        print(grid)
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
    return status


if __name__ == "__main__":
    sys.exit(main())
