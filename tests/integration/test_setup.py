"""`make run`'s set-up (`manage.py setup_local`): a SQLite file, and a second run keeps it."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apps.projects.demo import DEMO_PROJECT_TITLE, demo_seed
from apps.projects.models import Project
from tests.servers import embedded_made

ROOT = Path(__file__).resolve().parents[2]


def run_setup(data_dir: Path) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"}
    }
    env.update(COMPUTE_PLANNER_ENV="local", DATA_DIR=str(data_dir))
    result = subprocess.run(
        [sys.executable, "manage.py", "setup_local"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_setup_on_a_fresh_data_folder_then_again_keeps_the_data(tmp_path):
    # The first run is the one every embedded server's folder is copied from (tests/servers.py):
    # `setup_local` on a fresh folder, in `make run`'s environment, run once a test process.
    made = embedded_made()
    first = made.stdout
    assert (made.folder / "compute-planner.sqlite3").exists()
    assert re.search(r"Catalogue: \d{2,} created", first)
    assert re.search(r"API prices: \d{2,} created", first)
    assert re.search(r"[1-9]\d* new ECB rates", first)
    password = re.search(r"Demo manager \(created\): username 'demo', password '([^']+)'", first)
    assert password
    shutil.copytree(made.folder, tmp_path, dirs_exist_ok=True)
    second = run_setup(tmp_path)
    assert "Catalogue: 0 created" in second
    assert "API prices: 0 created" in second
    assert re.search(r"^0 new ECB rates", second, re.MULTILINE)
    assert f"Demo manager (already there): username 'demo', password '{password[1]}'" in second


@pytest.mark.django_db
def test_demo_seed_creates_one_manager_with_the_seed_000_project(tmp_path):
    username, password, created = demo_seed(credentials_file=tmp_path / "login.txt")
    assert created and len(password) >= 12
    project = Project.objects.get(title=DEMO_PROJECT_TITLE, owner__username=username)
    assert project.owner.groups.filter(name="manager").exists()
    requests = sorted(s.inputs["inference"]["requests_per_month"] for s in project.scenarios.all())
    assert requests == [15_000, 300_000]
    assert demo_seed(credentials_file=tmp_path / "login.txt") == (username, password, False)
    assert Project.objects.filter(title=DEMO_PROJECT_TITLE).count() == 1
