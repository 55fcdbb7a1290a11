"""Shared test setup.

The CLI's first-run compile notice (``cli.announce_compile``) goes to stderr whenever Numba's cache lacks
a kernel, which in a test run depends on which tests ran before; click's ``CliRunner`` folds stderr into
``result.output``. The notice is silenced here for in-process CLI runs, so that what a test reads does not
depend on test order; ``tests/test_cli_help.py`` checks the notice itself in subprocesses.

The browser tests share a real ``wizsim serve`` and a headless Chromium per module, its window the
module's ``WINDOW`` (width, height). The HTTP tests share an in-process client of the app per module
(``client``), with the module's ``API_WORKERS`` worker threads (default 1). Plain helpers several
modules share are in ``helpers.py``.
"""

import os

import pytest

from wizsim import cli


@pytest.fixture(autouse=True)
def _no_compile_notice(monkeypatch):
    monkeypatch.setattr(cli, "announce_compile", lambda *kernels, **kw: None)


@pytest.fixture(scope="module")
def server():
    from harness import served

    with served() as url:
        yield url


@pytest.fixture(scope="module")
def browser(request):
    from harness import chromium

    driver = chromium(*getattr(request.module, "WINDOW", (1280, 900)))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def client(request):
    if os.environ.get("CI") != "true":  # in CI the test extra installs the web stack: a missing one fails
        pytest.importorskip("fastapi")
        pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from wizsim.web.app import create_app

    app = create_app(workers=getattr(request.module, "API_WORKERS", 1))
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        yield c
