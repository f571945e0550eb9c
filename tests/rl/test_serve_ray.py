"""`rl serve --backend ray` on a two-node Ray cluster on this machine (issue 43): sessions
land on replicas of both nodes through one endpoint, episodes are byte-identical to one
process's, and stopping leaves none of the application running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from rl_support import free_port, until
from test_serve_scale import _local, _remote

from webmdp.rl.splits import TRAIN, Catalog

pytestmark = pytest.mark.slow


@pytest.fixture
def two_nodes() -> Iterator[object]:
    from ray.cluster_utils import Cluster

    # the proxy must not keep every session on the head node's replica
    os.environ["RAY_SERVE_PROXY_PREFER_LOCAL_NODE_ROUTING"] = "0"
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        yield cluster
    finally:
        import ray

        ray.shutdown()
        cluster.shutdown()
        os.environ.pop("RAY_SERVE_PROXY_PREFER_LOCAL_NODE_ROUTING", None)


def test_ray_serves_episodes_from_replicas_on_both_nodes(two_nodes: object) -> None:
    import ray
    from ray import serve
    from ray.util.state import list_actors

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--backend", "ray", "--workers", "2", "--port",
                             str(port), "--ray-address", two_nodes.address],  # type: ignore[attr-defined]
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        lines = until(proc, "ready")
        assert "ray replicas=2" in lines[-1]
        tasks = [t.id for t in Catalog("shopping").tasks(TRAIN)[:6]]
        with ThreadPoolExecutor(6) as pool:
            played = list(pool.map(lambda t: _remote(port, t), tasks))
        assert played == [_local(t) for t in tasks]
        ray.init(address=two_nodes.address)  # type: ignore[attr-defined]
        replicas = [a for a in list_actors(filters=[("state", "=", "ALIVE")])
                    if a.class_name.startswith("ServeReplica:webmdp")]
        assert len({a.node_id for a in replicas}) == 2
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    end = time.monotonic() + 30
    while time.monotonic() < end and "webmdp" in serve.status().applications:
        time.sleep(0.5)
    assert "webmdp" not in serve.status().applications
