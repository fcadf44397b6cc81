"""`make vendor`: refresh static/vendor/ from the npm registry at package-lock.json's versions.

The app serves its front-end libraries from the repository, so running and testing it needs no
Node.js; only this refresh does. It installs the locked packages into a temporary folder with
`npm ci`, copies the files the app and its tests use with each package's licence, and writes
static/vendor/VERSIONS: one line per file with its package, version and SHA-256, which
tests/unit/test_vendored_assets.py checks against package.json and package-lock.json.
"""

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "static" / "vendor"
VERSIONS = VENDOR / "VERSIONS"

# package -> (folder under static/vendor/, files in the package to copy there)
PACKAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "htmx.org": ("htmx", ("dist/htmx.min.js", "LICENSE")),
    # The map is kept because chart.umd.min.js names it, and the production static storage
    # refuses to collect a file that references a missing one.
    "chart.js": (
        "chartjs",
        ("dist/chart.umd.min.js", "dist/chart.umd.min.js.map", "LICENSE.md"),
    ),
    # Bundled inside chart.umd.min.js: only its licence travels separately.
    "@kurkle/color": ("kurkle-color", ("LICENSE.md",)),
    # For the browser tests' accessibility checks; the image build leaves it out.
    "axe-core": ("axe-core", ("axe.min.js", "LICENSE", "LICENSE-3RD-PARTY.txt")),
}

HEADER = (
    "# Written by `make vendor` (scripts/vendor.py) from package-lock.json; do not edit by hand.\n"
    "# package version file sha256\n"
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def install(into: Path) -> Path:
    """Install the locked packages into `into` and return its node_modules folder."""
    if shutil.which("npm") is None:
        sys.exit("make vendor needs npm (Node.js); running and testing the app does not.")
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(ROOT / name, into / name)
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=into, check=True
    )
    return into / "node_modules"


def copy(node_modules: Path) -> list[str]:
    """Copy each package's files into static/vendor/ and return the lines of VERSIONS."""
    shutil.rmtree(VENDOR, ignore_errors=True)
    lines = []
    for package, (folder, files) in PACKAGES.items():
        source = node_modules / package
        version = json.loads((source / "package.json").read_text())["version"]
        (VENDOR / folder).mkdir(parents=True, exist_ok=True)
        for name in files:
            target = VENDOR / folder / Path(name).name
            shutil.copyfile(source / name, target)
            relative = target.relative_to(VENDOR).as_posix()
            lines.append(f"{package} {version} {relative} {sha256(target)}\n")
    return lines


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        lines = copy(install(Path(work)))
    VERSIONS.write_text(HEADER + "".join(lines))
    print(f"static/vendor/ refreshed: {len(lines)} files; see {VERSIONS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
