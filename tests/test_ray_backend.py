"""The Ray backend plays exactly the games local processes play: on a local Ray, and on a cluster of
three nodes on this machine, with the ruleset shipped with the job and a node lost mid-run. And the
archive of a ruleset's files is loaded by a worker, or refused when unsafe (tests that need no Ray)."""
import io
import shutil
import tarfile
from pathlib import Path

import pytest

from interpreter.loading.stages import load_ruleset
from interpreter.simulation import ray_backend, shipping
from interpreter.simulation.backends import run
from interpreter.simulation.results_db import WORKER
from interpreter.simulation.runner import Table, play_one

REPO = Path(__file__).resolve().parent.parent
CERNUNOS = REPO / "rulesets" / "cernunos"
STORE = 80 * 2**20  # each node's object store: the least Ray allows, as the archive is small
NO_RAY = "the Ray backend is optional: pip install 'ludolex[ray]'"


def by_seed(records) -> list[dict]:
    return sorted(records, key=lambda record: record["seed"])


def played_locally(ruleset, seeds, table: Table | None = None) -> list[dict]:
    return by_seed(run(ruleset, seeds, table or Table(), 1))


@pytest.fixture
def cluster():
    """A head and two worker nodes of 1 CPU each, on this machine; the driver connected to it. One test
    uses it, for all its checks: a cluster takes seconds of both cores to start, and test workers each
    starting their own would slow the whole suite."""
    ray = pytest.importorskip("ray", reason=NO_RAY)
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "object_store_memory": STORE,
                                                             "include_dashboard": False})
    for _ in range(2):
        cluster.add_node(num_cpus=1, object_store_memory=STORE)
    ray.init(address=cluster.address, log_to_driver=False)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


@pytest.mark.ray
def test_a_local_ray_and_local_processes_play_the_same_games():
    pytest.importorskip("ray", reason=NO_RAY)
    assert by_seed(run(CERNUNOS, range(40), Table(), 2, backend="ray")) == played_locally(CERNUNOS, range(40))


@pytest.mark.ray
def test_a_cluster_of_three_nodes_plays_the_games_of_local_processes(cluster, tmp_path):
    plays_the_games_of_local_processes(cluster)
    takes_the_ruleset_with_the_job(cluster, tmp_path / "shipped")
    loses_a_node_mid_run_at_the_cost_of_a_replay(cluster, tmp_path / "lost")


def plays_the_games_of_local_processes(cluster):
    table = Table(("rule_of_thumb", "random"))
    remote = by_seed(run(CERNUNOS, range(60), table, 1, backend="ray", address=cluster.address))
    assert remote == played_locally(CERNUNOS, range(60), table)


def takes_the_ruleset_with_the_job(cluster, tmp_path):
    """A variant whose files lie in three folders, moved away once packed: no worker reads the driver's files."""
    project = tmp_path / "project"
    shutil.copytree(CERNUNOS, project / "rulesets" / "cernunos")
    shutil.copytree(REPO / "cards" / "cernunos", project / "cards" / "cernunos")
    variant = project / "rulesets" / "more_wolves"
    variant.mkdir()
    (variant / "game.yaml").write_text("name: more_wolves\nbase: cernunos\noverrides:\n  wolf: {per_player: 4}\n")
    ruleset, table = load_ruleset(variant), Table(("rule_of_thumb", "random"))
    expected = played_locally(ruleset, range(30), table)

    def pack_then_move(ruleset):
        archive = shipping.pack(ruleset)
        project.rename(tmp_path / "moved")
        return archive

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(ray_backend, "pack", pack_then_move)
        remote = by_seed(run(ruleset, range(30), table, 1, backend="ray", address=cluster.address))
    assert not project.exists()
    assert remote == expected


def loses_a_node_mid_run_at_the_cost_of_a_replay(cluster, tmp_path):
    """The node is removed while it plays a chunk: the other nodes wait for it to hold one."""
    tmp_path.mkdir()
    doomed = cluster.add_node(num_cpus=1, object_store_memory=STORE)
    cluster.wait_for_nodes()
    doomed_id, play_chunk = doomed.node_id, ray_backend.play_chunk
    playing = tmp_path / "the doomed node plays a chunk"

    def play_chunk_once_the_doomed_node_plays(*arguments):  # a local function: Ray ships it by value
        import time

        import ray

        if ray.get_runtime_context().get_node_id() == doomed_id:
            playing.touch()
            time.sleep(600)  # until its node is removed
        for _ in range(600):
            if playing.exists():
                break
            time.sleep(0.1)
        return play_chunk(*arguments)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(ray_backend, "play_chunk", play_chunk_once_the_doomed_node_plays)
        stream = run(CERNUNOS, range(200), Table(), 1, backend="ray", address=cluster.address)
        first = next(stream)
        cluster.remove_node(doomed, allow_graceful=False)
        records = by_seed([first, *stream])
    assert not [r for r in records if r["reason"] == WORKER]
    assert records == played_locally(CERNUNOS, range(200))


def test_a_packed_ruleset_unpacks_elsewhere_as_the_same_version(tmp_path):
    ruleset = load_ruleset(CERNUNOS)
    folder = shipping.unpack(shipping.pack(ruleset), tmp_path)
    assert folder == tmp_path.resolve() / "rulesets" / "cernunos"
    assert load_ruleset(folder).content_hash() == ruleset.content_hash()


def test_a_worker_loads_the_shipped_ruleset_and_its_bots_and_keeps_no_files():
    ruleset, table = load_ruleset(CERNUNOS), Table(("rule_of_thumb", "random"))
    archive = shipping.pack(ruleset)
    shipped, problem, folder = ray_backend._load_shipped(archive, ruleset.content_hash(), table.bots)
    assert problem is None and "rule_of_thumb" in shipped.policies and not Path(folder).exists()
    assert play_one(shipped, 7, table) == play_one(ruleset, 7, table)
    shipped, problem, folder = ray_backend._load_shipped(archive, "0123456789abcdef", table.bots)
    assert shipped is None and "not the run's 0123456789abcdef" in problem and not Path(folder).exists()


def archive_of(*members: tarfile.TarInfo) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for member in members:
            archive.addfile(member, io.BytesIO(b"x" * member.size) if member.isfile() else None)
    return buffer.getvalue()


def file_named(name: str) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.size = 1
    return member


def link_named(name: str, target: str, kind=tarfile.SYMTYPE) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.type, member.linkname = kind, target
    return member


@pytest.mark.parametrize("members", [
    [file_named("../evil")],
    [file_named("rulesets/../../evil")],
    [file_named("/tmp/evil")],
    [link_named("game", "/etc")],
    [link_named("evil", "../evil")],
    [link_named("evil", "/etc/passwd", tarfile.LNKTYPE)],
], ids=["dot-dot", "dot-dot-inside", "absolute", "symlink-to-folder", "symlink", "hard-link"])
def test_an_archive_that_writes_outside_its_folder_or_a_link_is_refused(tmp_path, members):
    folder = tmp_path / "unpacked"
    folder.mkdir()
    with pytest.raises(shipping.UnsafeArchive):
        shipping.unpack(archive_of(*members), folder)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["unpacked"]
