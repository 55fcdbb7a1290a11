"""``wizsim serve``: the advisor as a local web page and a JSON API (the optional extra ``wizsim[web]``).

``api`` turns a request (the CLI options' names as fields) into the same library call the CLI makes
and answers with the same ``--json`` object; ``app`` is the ASGI application (FastAPI) with its
bounds; ``server`` warms the kernels and runs uvicorn; ``static/`` is the page, with every asset it
needs (no CDN). Nothing here imports the CLI.
"""

from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"  # this machine only: a phone on the network needs --host 0.0.0.0
DEFAULT_PORT = 8000
WEB_EXTRA_HINT = "wizsim serve needs the web extra: pip install 'wizsim[web]'"


def missing_web_extra() -> str | None:
    """The one-line hint when FastAPI or uvicorn is not installed, else None."""
    import importlib.util

    missing = [m for m in ("fastapi", "uvicorn") if importlib.util.find_spec(m) is None]
    return f"{WEB_EXTRA_HINT} ({', '.join(missing)} not installed)" if missing else None
