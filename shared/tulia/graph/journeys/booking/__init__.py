"""The booking journey: :mod:`.nodes` (its steps) and :mod:`.journey` (its subgraph, ``booking``)."""
