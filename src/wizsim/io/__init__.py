"""Parquet input/output: ``schema`` defines every column once, ``parquet`` writes and reads files."""
