"""The advisor's compiled kernels, and their twins: what bid and play advice run that a plain simulation
does not.

``candidate_rounds`` (one deal replayed once per candidate bid: bid advice), ``evidence`` (deals and
worlds weighed by the opponents' model), ``world_batches`` (batches of worlds consistent with what a
seat saw, sampled or listed: play advice), ``playouts`` (each candidate card played, then the round
played out, on each world: play advice's evaluator) and ``reference`` (their plain-Python twins). The
engine (``sim``) runs the rounds they replay; nothing in ``sim`` imports them.
"""
