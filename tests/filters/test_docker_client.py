"""docker without a daemon: the real client's error and exit code reach the caller through rtk."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import rtk_argv

pytestmark = pytest.mark.integration


def _no_daemon_env(tmp_path: Path) -> dict[str, str]:
    if shutil.which("docker") is None:
        pytest.skip("docker client is not installed")
    env = {k: v for k, v in os.environ.items() if k not in ("DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), DOCKER_HOST="unix:///nonexistent/docker.sock")
    return env


@pytest.mark.parametrize("cmd", [["ps"], ["images"], ["ps", "-a"], ["logs", "web"], ["exec", "web", "ls"]])
def test_daemon_unreachable_error_and_exit_code_survive(tmp_path: Path, cmd: list[str]) -> None:
    env = _no_daemon_env(tmp_path)
    plain = subprocess.run(["docker", *cmd], capture_output=True, env=env, timeout=60)
    assert plain.returncode != 0 and b"Cannot connect to the Docker daemon" in plain.stderr
    p = subprocess.run(rtk_argv("docker", *cmd), capture_output=True, env=env, timeout=60)
    assert p.returncode == plain.returncode
    assert b"Cannot connect to the Docker daemon at unix:///nonexistent/docker.sock" in p.stdout + p.stderr


@pytest.mark.parametrize(
    ("cmd", "filter_id"),
    [(["build", "-t", "demo", "."], "docker-build"), (["run", "--rm", "busybox", "true"], "docker-run"),
     (["exec", "web", "ls", "/app"], "docker-run")],
)  # fmt: skip
def test_build_run_exec_errors_and_exit_code_survive_their_filters(
    tmp_path: Path, cmd: list[str], filter_id: str
) -> None:
    from rtk import filters

    spec = filters.resolve(["docker", *cmd])
    assert spec is not None and spec.name == filter_id
    env = _no_daemon_env(tmp_path)
    (tmp_path / "Dockerfile").write_text("FROM busybox\n")
    plain = subprocess.run(["docker", *cmd], capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert plain.returncode != 0
    p = subprocess.run(rtk_argv("docker", *cmd), capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert p.returncode == plain.returncode
    out = p.stdout + p.stderr
    assert b"Cannot connect to the Docker daemon at unix:///nonexistent/docker.sock" in out
    assert b"DEPRECATED: The legacy builder" not in out  # build's advert goes (run's short error stays raw)


@pytest.mark.parametrize(
    ("command", "rewritten"),
    [("docker build .", True), ("docker run --rm busybox echo hi", True), ("docker exec web ls /app", True),
     ("docker run -it ubuntu bash", False), ("docker exec -it web sh", False), ("docker run --rm -t busybox top", False),
     ("docker exec --interactive web sh", False), ("docker run -dit busybox", False)],
)  # fmt: skip
def test_non_interactive_run_exec_build_are_rewritten(command: str, rewritten: bool) -> None:
    from rtk.rewrite import engine

    got = engine.rewrite(command)
    assert (got == "rtk " + command) if rewritten else got is None, (command, got)


def test_build_layer_lines_go_steps_and_their_output_stay() -> None:
    """Issue 16 (medians): Podman's layer ids, COMMIT and the repeated full id go; steps, output and ids stay."""
    import re

    from fixturelib import FIXTURES, load, run  # type: ignore[import-not-found]

    raw = (FIXTURES / "docker-build" / "engine-cached.raw").read_text()
    layers = re.findall(r"^--> ([0-9a-f]{11})$", raw, re.M)
    full = re.findall(r"^([0-9a-f]{64})$", raw, re.M)
    assert len(layers) == 6 and len(full) == 1  # the capture holds what the filter drops
    out = run(load(FIXTURES / "docker-build" / "engine-cached.toml")).text
    assert not any(f"--> {h}" in out for h in layers) and full[0] not in out
    assert "COMMIT localhost/rtk-demo:3" not in out
    assert out.count("--> Using cache") == 6 and "STEP 7/7: CMD" in out
    assert f"Successfully built {full[0][:12]}" in out and "Successfully tagged localhost/rtk-demo:3" in out


@pytest.mark.parametrize(
    ("cmd", "name"),
    [("docker build -q .", None), ("docker build --quiet -t x .", None), ("docker image build -q .", None),
     ("docker build -t x .", "docker-build"), ("docker build --quietly-named-tag .", "docker-build")],
)  # fmt: skip
def test_quiet_build_prints_only_the_id_and_gets_no_filter(cmd: str, name: str | None) -> None:
    """-q prints the bare 64-hex id that the build filter drops: such a build is not matched (runs raw)."""
    from rtk import filters

    spec = filters.resolve(cmd.split())
    assert (spec.name if spec is not None else None) == name
