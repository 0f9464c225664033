"""``python -m tulia.tools --schemas`` prints the 15 tool schemas as a JSON array (``--with-bookings``:
and the six appointment tools' after them)."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tulia.tools", description=__doc__)
    parser.add_argument("--schemas", action="store_true", help="print the tool JSON schemas")
    parser.add_argument("--with-bookings", action="store_true", help="add the appointment tools' schemas")
    ns = parser.parse_args(argv)
    if not ns.schemas:
        parser.print_help()
        return 2
    from tulia.tools.registry import schemas

    sys.stdout.write(json.dumps(schemas(with_bookings=ns.with_bookings), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
