"""Set up atout from a fresh checkout, then play or run the tests.

    python3 ui/scripts/bootstrap.py play [ARGS...]              # the game (arguments go to `atout play`)
    python3 ui/scripts/bootstrap.py test [ARGS...]              # the tests, against a wheel of the checkout
    python3 ui/scripts/bootstrap.py test --editable [ARGS...]   # the tests, against the editable install

Standard library only: it runs before anything is installed.  It is a script of the
checkout, not a module of atout: ``ui/scripts`` is no package, so the installed
distribution does not ship it.  It works from the checkout's root (found from this file's
place by ``pyproject.toml``, whatever the current directory).

``play`` makes a virtual environment in ``.venv`` and installs atout into it, editable.

``test`` tests what a person installs, not the checkout's folders: it builds a wheel of
the checkout and one of the example plugin (from a clean copy: setuptools reuses a stale
``build/``), installs both into a virtual environment of their own, ``.venv-wheel``, with
the test extras, and runs pytest there with ``ATOUT_TEST_WHEEL`` naming the wheel, so that
``tests/conftest.py`` stops the run when atout is imported from anywhere but that
install.  ``test --editable`` runs the same tests against ``.venv`` (atout and the
example plugin installed editable): the quick loop while changing the code, with no wheel
to build.  Either way the arguments go to pytest, and a file, folder or test id among them
runs just that (with none, pytest runs ``tests/`` and the example plugin's tests); a path
is taken from the current directory.

On Debian/Ubuntu, when it may (as root, or with password-less sudo), it installs the
system packages it needs: ``python3-venv`` and, for the Arcade tests, the OpenGL, EGL,
FreeType and Fontconfig libraries with Mesa's software renderer.
"""

from __future__ import annotations

import ctypes.util
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
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
"""The editable install: ``play`` and ``test --editable``."""
WHEEL_VENV = ROOT / ".venv-wheel"
"""The install of the checkout's wheel that ``test`` runs the tests against."""
WHEEL_ENV = "ATOUT_TEST_WHEEL"
"""Set to the wheel's path for a run against it: ``tests/conftest.py`` checks the install."""
EXAMPLE = ROOT / "examples" / "atout-sans-tout-atout"
TEST_PATHS = ["tests", "examples/atout-sans-tout-atout/tests"]
"""What pytest runs when the arguments name no test (relative to the root)."""
BUILD_TOOLS = [
    *tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"][
        "requires"
    ],
    "setuptools>=70.1",
]
"""What building the wheel needs (it is built without isolation, in ``.venv-wheel``): the
build requirements ``pyproject.toml`` names, and a setuptools recent enough to build it."""
COPY_IGNORE = (
    ".git",
    ".venv*",
    ".hypothesis",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
)
"""What a build or a run leaves in the checkout, left out of the copy a wheel is built from."""
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


def python(venv: Path = VENV) -> Path:
    return venv / "bin" / "python"


def make_venv(venv: Path = VENV) -> None:
    if python(venv).exists():
        return
    say(f"creating a virtual environment in {venv}")
    if subprocess.run([sys.executable, "-m", "venv", str(venv)]).returncode == 0:
        return
    shutil.rmtree(venv, ignore_errors=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"
    installed = apt_install([version]) or apt_install(["python3-venv"])
    if installed and subprocess.run([sys.executable, "-m", "venv", str(venv)]).returncode == 0:
        return
    sys.exit(
        "atout: cannot create a virtual environment; install Python's venv module "
        f"(sudo apt-get install {version}) and run this again"
    )


def pip(venv: Path, args: list[str], what: str) -> None:
    """``pip install ARGS`` in ``venv``; the script stops with ``what`` when it fails."""
    command = [str(python(venv)), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    if subprocess.run([*command, *args]).returncode:
        sys.exit(f"atout: {what} failed (see pip's message above)")


def install_once(venv: Path, stamp: str, key: bytes, args: list[str], what: str) -> None:
    """``pip install ARGS`` unless the same install (``key``: what it depends on) was made
    in ``venv`` already: a second run starts at once."""
    path = venv / stamp
    digest = hashlib.sha256(key).hexdigest()
    if path.exists() and path.read_text() == digest:
        return
    say(what)
    pip(venv, args, what)
    path.write_text(digest)


def projects(with_example: bool) -> bytes:
    """The project files an install depends on: a change in them installs again."""
    sources = [ROOT / "pyproject.toml"]
    if with_example:
        sources.append(EXAMPLE / "pyproject.toml")
    return b"".join(p.read_bytes() for p in sources if p.exists())


def install(extras: str, with_example: bool) -> None:
    """Install atout (and the example plugin) editable in ``.venv``, unless already there."""
    targets = ["-e", f"{ROOT}{extras}"]
    if with_example and EXAMPLE.exists():
        targets += ["-e", str(EXAMPLE)]
    install_once(
        VENV,
        ".atout-install",
        extras.encode() + projects(with_example),
        targets,
        "installing atout and its dependencies",
    )


def build_wheels(builder: Path, out: Path) -> list[Path]:
    """Build the wheel of atout (first) and of the example plugin into ``out`` with the
    Python ``builder`` (which has setuptools), from a copy of the checkout without what a
    build or a run leaves behind: setuptools reuses a ``build/`` folder, so a module
    deleted or moved since an earlier build would still be packed, as it is not from a
    clean clone."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="atout-wheel-") as folder:
        source = Path(folder) / "atout"
        shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(*COPY_IGNORE))
        sources = [source]
        if EXAMPLE.exists():
            sources.append(source / EXAMPLE.relative_to(ROOT))
        command = [str(builder), "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        result = subprocess.run(
            [*command, "-q", "--disable-pip-version-check", "-w", str(out), *map(str, sources)],
            capture_output=True,
            text=True,
        )
    if result.returncode:
        sys.exit(f"atout: building the wheel failed:\n{result.stdout}{result.stderr}")
    wheels = sorted(out.glob("atout-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"atout: expected one atout wheel in {out}, found {len(wheels)}")
    return wheels + sorted(out.glob("atout_sans_tout_atout-*.whl"))


def install_wheels() -> Path:
    """Build the checkout's wheels and install them in ``.venv-wheel``; the atout wheel."""
    make_venv(WHEEL_VENV)
    install_once(
        WHEEL_VENV,
        ".atout-build-tools",
        " ".join(BUILD_TOOLS).encode(),
        BUILD_TOOLS,
        "installing the tools that build a wheel",
    )
    out = WHEEL_VENV / "wheels"
    shutil.rmtree(out, ignore_errors=True)
    say("building the wheel of the checkout")
    wheels = build_wheels(python(WHEEL_VENV), out)
    install_once(
        WHEEL_VENV,
        ".atout-install",
        projects(with_example=True),
        [f"{wheels[0]}[test]", *map(str, wheels[1:])],
        "installing the wheel's dependencies",
    )
    # The version does not change from one build to the next: force the new files in.
    pip(WHEEL_VENV, ["--no-deps", "--force-reinstall", *map(str, wheels)], "installing the wheel")
    return wheels[0]


def pytest_args(rest: list[str], cwd: Path) -> list[str]:
    """The arguments for pytest, run from the root: a path among ``rest`` that exists from
    ``cwd`` (a file, a folder, ``FILE::TEST``) made absolute, and the test paths to run
    when none is named, as pytest's own ``testpaths`` (pytest knows which arguments are an
    option's value, as in ``-k NAME``, and uses them only when no test is named)."""
    args = []
    for arg in rest:
        path = arg.split("::", 1)[0]
        if arg and not arg.startswith("-") and (cwd / path).exists():
            arg = str((cwd / path).resolve()) + arg[len(path) :]
        args.append(arg)
    paths = [p for p in TEST_PATHS if (ROOT / p).exists()]
    return ["-o", "testpaths=" + " ".join(paths), *args]


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
    if mode == "play":
        make_venv()
        install("", with_example=False)
        os.execv(str(VENV / "bin" / "atout"), ["atout", "play", *rest])
    ensure_gl()
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    env.pop(WHEEL_ENV, None)
    if rest[:1] == ["--editable"]:
        rest = rest[1:]
        venv = VENV
        make_venv()
        install("[test]", with_example=True)
    else:
        venv = WHEEL_VENV
        env[WHEEL_ENV] = str(install_wheels())
    # -P: the root is not put on sys.path, so nothing is imported from the checkout's
    # folders but the tests' own helpers.
    command = [str(python(venv)), "-P", "-m", "pytest", *pytest_args(rest, Path.cwd())]
    return subprocess.run(command, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
