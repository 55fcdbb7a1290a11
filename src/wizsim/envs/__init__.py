"""wizsim in the research ecosystem (``pip install "wizsim[rl]"``): environments over the open table.

- ``wizsim.envs.encoding``: the observation tensor and the flat action space every environment uses;
- ``wizsim.envs.pettingzoo``: ``env(players=4, r=None, hook=False)``, a PettingZoo AEC environment;
- ``wizsim.envs.openspiel``: registers the OpenSpiel game ``"python_wizard"`` on import;
- ``wizsim.envs.vector``: ``VectorEnv``, a batch of rounds stepped by one kernel call.

Each environment is built on ``wizsim.Round``/``wizsim.Game`` or on the round kernel's own pieces; none
holds a copy of the rules. Importing this package imports none of pettingzoo, gymnasium or pyspiel.
"""
