"""Issue 32, Dask: scheduler addresses are checked by scheme (only tcp:// is opened) before anything
starts; a port that accepts and never speaks is given up after a handshake timeout instead of hanging
for ever; a local cluster's workers run with the threads their own Numba allows (NUMBA_NUM_THREADS=1
made them fail with "threads must be 1..1, got 2" though no --threads was given); SIGTERM stops a Dask
tournament with one line and status 143."""

import os
import socket
import threading
import time

import pytest
from cli_errors import one_error
from click.testing import CliRunner
from outside import message_lines, start_wizsim

import wizsim._dask
from wizsim.cli import main
from wizsim.config import ConfigError

pytest.importorskip("distributed")

TOURNAMENT = ["tournament", "--players", "4", "--policies", "heuristic,random", "--games", "8", "--seed", "1"]


@pytest.mark.parametrize("address", ["ucx://127.0.0.1:8786", "tls://127.0.0.1:8786", "ws://127.0.0.1:8786",
                                     "UCX://h:1"])
def test_a_scheduler_of_another_transport_is_refused_naming_the_option(address):
    # TypeError tracebacks from Dask, before
    line = one_error(CliRunner().invoke(main, [*TOURNAMENT, "--engine", "dask", "--scheduler", address]),
                      "--scheduler: ")
    assert "only tcp://" in line and address in line, line


def test_a_dataset_run_refuses_it_before_touching_the_folder(tmp_path):
    out = tmp_path / "data"
    res = CliRunner().invoke(main, ["simulate", "--round", "2", "--rounds", "10", "--out", str(out), "--engine", "dask",
                                    "--scheduler", "tls://127.0.0.1:8786"])
    one_error(res, "only tcp://")
    assert not out.exists()


def test_the_library_says_the_same():
    from wizsim.tournament import run_tournament

    with pytest.raises(ConfigError, match="--scheduler: ucx:// addresses are not supported, only tcp://"):
        run_tournament(4, "random", 4, engine="dask", scheduler="ucx://127.0.0.1:8786")


@pytest.fixture
def silent_port():
    """A port that accepts connections and never says a word (a wrong service, a hung scheduler)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        server.close()


def test_a_port_that_never_speaks_is_given_up_after_the_handshake_timeout(silent_port, monkeypatch):
    monkeypatch.setattr(wizsim._dask, "HANDSHAKE_SECONDS", 1.0)  # 10 s by default
    monkeypatch.setattr(wizsim._dask, "CONNECT_TIMEOUT", "2s")
    started = time.monotonic()
    res = CliRunner().invoke(main, [*TOURNAMENT, "--engine", "dask", "--scheduler", f"tcp://127.0.0.1:{silent_port}"])
    took = time.monotonic() - started
    line = one_error(res, f"cannot reach the Dask scheduler at tcp://127.0.0.1:{silent_port} (--scheduler)")
    assert "no answer to Dask's handshake within 1 s" in line, line
    assert took < 15, took  # hung past 300 s, before


def test_what_answers_must_be_a_dask_scheduler(monkeypatch):
    """A port that answers, but not as a scheduler (here: an HTTP server's first words), is not taken."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def speak():
        conn, _ = server.accept()
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 4)
        time.sleep(3)
        conn.close()

    threading.Thread(target=speak, daemon=True).start()
    monkeypatch.setattr(wizsim._dask, "HANDSHAKE_SECONDS", 1.0)
    monkeypatch.setattr(wizsim._dask, "CONNECT_TIMEOUT", "2s")
    with pytest.raises(ConfigError, match=r"cannot reach the Dask scheduler at .* \(--scheduler\)"):
        wizsim._dask.open_client(f"tcp://127.0.0.1:{server.getsockname()[1]}", None, True, ConfigError)
    server.close()


def test_a_worker_takes_at_most_the_threads_its_numba_allows():
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    assert wizsim._dask.worker_threads(None) is None
    assert wizsim._dask.worker_threads(limit + 7) == limit
    assert wizsim._dask.worker_threads(1) == 1


def _stderr_lines(err):
    return [line for line in message_lines(err) if "resource_tracker" not in line]


def test_numba_num_threads_1_on_the_workers_plays_without_a_word():
    env_before = os.environ.get("NUMBA_NUM_THREADS")
    os.environ["NUMBA_NUM_THREADS"] = "1"
    try:
        proc = start_wizsim([*TOURNAMENT, "--engine", "dask", "--workers", "1", "--json"])
    finally:
        if env_before is None:
            del os.environ["NUMBA_NUM_THREADS"]
        else:
            os.environ["NUMBA_NUM_THREADS"] = env_before
    try:
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err  # "threads must be 1..1, got 2" and two worker tracebacks, before
    assert '"games": 8' in out or '"n_games": 8' in out, out
    assert _stderr_lines(err) == [], err


def test_sigterm_stops_a_dask_tournament_with_one_line_and_143():
    import signal

    psutil = pytest.importorskip("psutil")
    proc = start_wizsim(["tournament", "--players", "4", "--policies", "heuristic,random", "--games", "100000000",
                         "--engine", "dask", "--workers", "1"])
    kids = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not kids:
            time.sleep(0.5)
            kids.extend(k for k in psutil.Process(proc.pid).children(recursive=True) if "python" in k.name())
        time.sleep(3)  # the workers are up and playing
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert _stderr_lines(err) == ["interrupted: stopped before the answer was complete"], err
    _, alive = psutil.wait_procs(kids, timeout=15)
    assert not alive, alive
