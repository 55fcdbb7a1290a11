"""Simulation: the one round kernel (``round``) and the batch drivers over rounds and games (``driver``)."""
