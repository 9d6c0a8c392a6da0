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
