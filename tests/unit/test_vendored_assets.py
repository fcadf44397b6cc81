"""The front-end libraries in static/vendor/ are the versions package.json and its lock record."""

import hashlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "static" / "vendor"

# Where each library states its own version in the file the app serves (or the tests inject).
VERSION_MARKS = {
    "htmx.org": ("htmx/htmx.min.js", 'version:"{version}"'),
    "chart.js": ("chartjs/chart.umd.min.js", "/*!\n * Chart.js v{version}\n"),
    "axe-core": ("axe-core/axe.min.js", "/*! axe v{version}\n"),
}


def versions_manifest() -> list[tuple[str, str, str, str]]:
    """The lines of static/vendor/VERSIONS: (package, version, file, sha256)."""
    lines = (VENDOR / "VERSIONS").read_text().splitlines()
    return [tuple(line.split(" ")) for line in lines if line and not line.startswith("#")]


def package_json_versions() -> dict[str, str]:
    package = json.loads((ROOT / "package.json").read_text())
    return {**package["dependencies"], **package["devDependencies"]}


def locked_versions() -> dict[str, str]:
    packages = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    prefix = "node_modules/"
    return {path.removeprefix(prefix): row["version"] for path, row in packages.items() if path}


def test_every_package_json_library_is_vendored_at_its_version() -> None:
    vendored = {package: version for package, version, _, _ in versions_manifest()}
    assert package_json_versions().items() <= vendored.items()


def test_vendored_versions_are_the_locked_ones() -> None:
    locked = locked_versions()
    assert package_json_versions().items() <= locked.items()
    for package, version, name, _ in versions_manifest():
        assert locked.get(package) == version, f"{name}: {package} {version} is not locked"


@pytest.mark.parametrize("package", sorted(VERSION_MARKS))
def test_each_library_file_states_the_version_package_json_pins(package: str) -> None:
    name, mark = VERSION_MARKS[package]
    text = (VENDOR / name).read_text(encoding="utf-8")
    assert mark.format(version=package_json_versions()[package]) in text


def test_every_vendored_file_matches_its_checksum() -> None:
    for _, _, name, digest in versions_manifest():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_static_vendor_holds_only_the_files_versions_lists() -> None:
    on_disk = {p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*") if p.is_file()}
    listed = {name for _, _, name, _ in versions_manifest()}
    assert on_disk - {"VERSIONS"} == listed


def test_every_vendored_package_carries_its_licence() -> None:
    packages = {package for package, _, _, _ in versions_manifest()}
    licensed = {
        package for package, _, name, _ in versions_manifest() if "LICENSE" in Path(name).name
    }
    assert packages == licensed
