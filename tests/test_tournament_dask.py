"""Tournaments on a Dask cluster (issue 18 item 4): ``run_tournament(..., engine="dask")`` and
``wizsim tournament --engine dask`` give the local result, identical (the dict and the JSON text),
with several chunks of deals, the hook and users' players (a file spec, an object defined in a test);
bad engine options exit 2 naming the option; Ctrl-C leaves no worker behind."""

import faulthandler
import json
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from outside import GREEDY_BOT, interrupt, message_lines, start_wizsim

import wizsim._dask
import wizsim.tournament
from wizsim.cli import main
from wizsim.config import ConfigError
from wizsim.tournament import run_tournament

ROOT = Path(__file__).resolve().parent.parent



@pytest.fixture(scope="module")
def threads_cluster():
    """Two workers as threads of this process: the cheap cluster, reached by its address."""
    from dask.distributed import LocalCluster

    faulthandler.dump_traceback_later(300, exit=True)  # a hung cluster fails the run instead of stalling it
    try:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
            yield cluster.scheduler_address
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def process_cluster():
    """One worker in its own process: what travels to it must really travel (pickled or by path)."""
    from dask.distributed import LocalCluster

    faulthandler.dump_traceback_later(300, exit=True)
    try:
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            yield cluster.scheduler_address
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(wizsim.tournament, "DEAL_CHUNK", 2)  # several chunks, gathered in order


def _same(a, b):
    assert a.to_dict() == b.to_dict()
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())


@pytest.mark.parametrize("players, table, games, hook", [
    (4, ["heuristic", "random", "random", "random"], 40, False),
    (5, "heuristic,random,heuristic,random,random", 50, True),
])
def test_a_dask_tournament_is_the_local_one(threads_cluster, small_chunks, players, table, games, hook):
    kw = dict(seed=7, hook=hook, keep_games=True)
    local = run_tournament(players, table, games, **kw)
    seen = []
    on_dask = run_tournament(players, table, games, **kw, engine="dask", scheduler=threads_cluster,
                             progress=seen.append)
    _same(local, on_dask)
    assert local.games.equals(on_dask.games)
    chunks = -(-local.n_deals // 2)
    assert chunks > 2 * 2  # more chunks than are in flight at once (two per worker)
    assert sum(seen) == local.n_games and len(seen) == chunks


def test_a_player_from_a_file_spec_plays_on_a_worker_process(process_cluster, small_chunks, tmp_path, monkeypatch):
    (tmp_path / "greedy.py").write_text(GREEDY_BOT)
    monkeypatch.chdir(tmp_path)  # the spec is relative here; the worker gets the file's absolute path
    table = "greedy.py:Greedy,heuristic,random"
    local = run_tournament(3, table, 24, seed=2)
    on_dask = run_tournament(3, table, 24, seed=2, engine="dask", scheduler=process_cluster)
    _same(local, on_dask)
    assert {p["name"] for p in on_dask.to_dict()["policies"]} == {"greedy.py:Greedy", "heuristic", "random"}


def test_a_player_object_defined_in_a_function_is_pickled_to_a_worker_process(process_cluster, small_chunks):
    class Lowest:  # a class no module holds: cloudpickle sends it by value
        name = "lowest"

        def trump(self, obs):
            return 3

        def bid(self, obs):
            return min(obs.legal)

        def card(self, obs):
            return min(obs.legal)

    table = [Lowest(), "heuristic", "random", "random"]
    local = run_tournament(4, table, 24, seed=4)
    on_dask = run_tournament(4, table, 24, seed=4, engine="dask", scheduler=process_cluster)
    _same(local, on_dask)
    assert "lowest" in {p["name"] for p in on_dask.to_dict()["policies"]}


def test_a_player_that_does_not_pickle_is_refused_naming_it():
    class Locked:
        name = "locked-bot"

        def __init__(self):
            self.lock = threading.Lock()

        def trump(self, obs):
            return 0

        def bid(self, obs):
            return obs.legal[0]

        def card(self, obs):
            return obs.legal[0]

    with pytest.raises(ConfigError, match="player 'locked-bot' cannot travel to the Dask workers"):
        run_tournament(4, [Locked(), "random"], 4, engine="dask", workers=1)


def test_cli_dask_json_is_the_local_json(tmp_path, monkeypatch):
    (tmp_path / "greedy.py").write_text(GREEDY_BOT)
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "--players", "4", "--policies", "greedy.py:Greedy,heuristic,random,random", "--games", "16",
            "--seed", "9", "--hook", "--json"]
    local = CliRunner().invoke(main, args)
    assert local.exit_code == 0, local.output
    faulthandler.dump_traceback_later(300, exit=True)
    try:
        on_dask = CliRunner().invoke(main, [*args, "--engine", "dask", "--workers", "1"])
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert on_dask.exit_code == 0, on_dask.output
    assert on_dask.stdout == local.stdout


@pytest.mark.parametrize("extra, needle", [
    (["--engine", "spark"], "--engine"),
    (["--engine", "dask", "--workers", "0"], "--workers"),
    (["--engine", "dask", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler"),
    (["--workers", "2"], "--engine dask"),
    (["--scheduler", "tcp://127.0.0.1:9"], "--engine dask"),
    (["--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler"),
])
def test_cli_bad_engine_options_exit_2_naming_the_option(monkeypatch, extra, needle):
    monkeypatch.setattr(wizsim._dask, "CONNECT_TIMEOUT", "1s")
    out = CliRunner().invoke(main, ["tournament", "--players", "4", "--policies", "random", "--games", "4", *extra])
    assert out.exit_code == 2, out.output
    assert needle in out.output and "Traceback" not in out.output, out.output
    assert len([line for line in out.output.splitlines() if line.startswith("Error")]) == 1, out.output


@pytest.mark.parametrize("kw, needle", [
    (dict(engine="spark"), "unknown engine 'spark'"),
    (dict(engine="dask", workers=0), "--workers must be 1 or more"),
    (dict(engine="dask", workers=2, scheduler="tcp://127.0.0.1:9"), "not both"),
    (dict(workers=2), "need --engine dask"),
])
def test_library_bad_engine_options_are_config_errors(kw, needle):
    with pytest.raises(ConfigError, match=needle):
        run_tournament(4, "random", 4, **kw)


def test_ctrl_c_stops_a_dask_tournament_and_its_workers():
    psutil = pytest.importorskip("psutil")
    proc = start_wizsim(["tournament", "--players", "4", "--policies", "heuristic,random", "--games", "100000000",
                         "--engine", "dask", "--workers", "1"])
    kids = []

    def workers_up():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not kids:
            time.sleep(0.5)
            kids.extend(k for k in psutil.Process(proc.pid).children(recursive=True) if "python" in k.name())
        time.sleep(2)

    err, waited = interrupt(proc, workers_up)
    assert proc.returncode == 130, err
    assert waited < 1.5, waited
    assert message_lines(err) == ["interrupted: stopped before the answer was complete"], err
    _, alive = psutil.wait_procs(kids, timeout=15)
    assert not alive, alive
