"""One check for the command line's refusals: exit status 2 (or ``code``), exactly one ``Error:`` line
holding ``needle``, no traceback."""

from click.testing import CliRunner

from wizsim.cli import main


def one_error(args, needle: str, code: int = 2) -> str:
    """Run ``wizsim ARGS`` (or check an already run ``Result``); returns the ``Error:`` line."""
    res = CliRunner().invoke(main, args) if isinstance(args, list) else args
    assert res.exit_code == code, (res.output, res.exception)
    errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and needle in errors[0], res.output
    assert "Traceback" not in res.output
    return errors[0]
