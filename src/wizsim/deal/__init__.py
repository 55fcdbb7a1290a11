"""Random streams keyed by (run seed, round index, stream) and the dealer (docs/rules.md sections 2 and 3)."""
