"""Set up atout from a fresh checkout, then play or run the tests.

    python3 ui/scripts/bootstrap.py play [ARGS...]   # the game (arguments go to `atout play`)
    python3 ui/scripts/bootstrap.py test [ARGS...]   # every test (arguments go to pytest)

Standard library only: it runs before anything is installed.  It is a script of the
checkout, not a module of atout: ``ui/scripts`` is no package, so the installed
distribution does not ship it.  It makes a virtual environment in ``.venv`` beside
``pyproject.toml`` (the checkout's root, found from this file's place, whatever the
current directory) and installs atout into it (editable, with the test extras and the
example plugin for ``test``).  On Debian/Ubuntu, when it may (as root, or with
password-less sudo), it installs the system packages it needs: ``python3-venv`` and, for
the Arcade tests, the OpenGL, EGL, FreeType and Fontconfig libraries with Mesa's
software renderer.
"""

from __future__ import annotations

import ctypes.util
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path


def find_root(start: Path) -> Path:
    """The checkout's root: the nearest folder above ``start`` that holds atout's
    ``pyproject.toml`` (so the script keeps working if it moves inside the checkout)."""
    for folder in start.resolve().parents:
        project = folder / "pyproject.toml"
        if project.is_file() and 'name = "atout"' in project.read_text(encoding="utf-8"):
            return folder
    sys.exit(f"atout: no atout checkout (pyproject.toml) above {start}")


ROOT = find_root(Path(__file__))
VENV = ROOT / ".venv"
EXAMPLE = ROOT / "examples" / "atout-sans-tout-atout"
GL_PACKAGES = ["libgl1", "libegl1", "libgl1-mesa-dri", "libfreetype6", "libfontconfig1"]
GL_LIBRARIES = ["GL", "EGL", "freetype", "fontconfig"]


def say(text: str) -> None:
    print(f"[atout setup] {text}", file=sys.stderr, flush=True)


def apt_install(packages: list[str]) -> bool:
    """Install Debian packages when allowed to; ``False`` when not possible here."""
    if not shutil.which("apt-get"):
        return False
    prefix: list[str] = []
    if os.geteuid() != 0:
        if (
            not shutil.which("sudo")
            or subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode
        ):
            return False
        prefix = ["sudo", "-n"]
    say("installing system packages: " + " ".join(packages))
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*prefix, "apt-get", "update", "-qq"], env=env, check=False)
    result = subprocess.run(
        [*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages], env=env
    )
    return result.returncode == 0


def python() -> Path:
    return VENV / "bin" / "python"


def make_venv() -> None:
    if python().exists():
        return
    say(f"creating a virtual environment in {VENV}")
    if subprocess.run([sys.executable, "-m", "venv", str(VENV)]).returncode == 0:
        return
    shutil.rmtree(VENV, ignore_errors=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"
    installed = apt_install([version]) or apt_install(["python3-venv"])
    if installed and subprocess.run([sys.executable, "-m", "venv", str(VENV)]).returncode == 0:
        return
    sys.exit(
        "atout: cannot create a virtual environment; install Python's venv module "
        f"(sudo apt-get install {version}) and run this again"
    )


def install(extras: str, with_example: bool) -> None:
    """Install atout (and the example plugin) unless the same install is already there."""
    stamp = VENV / ".atout-install"
    sources = [ROOT / "pyproject.toml"]
    if with_example:
        sources.append(EXAMPLE / "pyproject.toml")
    digest = hashlib.sha256(
        extras.encode() + b"".join(p.read_bytes() for p in sources if p.exists())
    ).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    say("installing atout and its dependencies")
    pip = [str(python()), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    targets = ["-e", f"{ROOT}{extras}"]
    if with_example and EXAMPLE.exists():
        targets += ["-e", str(EXAMPLE)]
    if subprocess.run([*pip, *targets]).returncode:
        sys.exit("atout: the installation failed (see pip's message above)")
    stamp.write_text(digest)


def ensure_gl() -> None:
    """The system libraries that Arcade loads, installed when missing and allowed."""
    missing = [lib for lib in GL_LIBRARIES if ctypes.util.find_library(lib) is None]
    if missing and not apt_install(GL_PACKAGES):
        say(
            "missing system libraries for the Arcade window: "
            + ", ".join(missing)
            + " (sudo apt-get install "
            + " ".join(GL_PACKAGES)
            + ")"
        )


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, rest = argv[0], argv[1:]
    make_venv()
    if mode == "play":
        install("", with_example=False)
        os.execv(str(VENV / "bin" / "atout"), ["atout", "play", *rest])
    ensure_gl()
    install("[test]", with_example=True)
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    tests = [str(ROOT / "tests")]
    if (EXAMPLE / "tests").exists():
        tests.append(str(EXAMPLE / "tests"))
    return subprocess.run(
        [str(python()), "-m", "pytest", *tests, *rest], cwd=ROOT, env=env
    ).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
