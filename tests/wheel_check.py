"""The check that a run against the wheel really tests the wheel.

``python3 ui/scripts/bootstrap.py test`` builds a wheel of the checkout, installs it (and
the example plugin's) into ``.venv-wheel`` and runs the tests there with
``ATOUT_TEST_WHEEL`` naming the wheel.  A test run that silently imported the checkout's
folders instead (an editable install left in the environment, the root on ``sys.path``)
would pass while the installed package is broken: ``tests/conftest.py`` stops such a run
at its start with the problems :func:`wheel_install_problems` finds.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import sysconfig
from pathlib import Path
from urllib.parse import unquote
from urllib.parse import urlparse

WHEEL_ENV = "ATOUT_TEST_WHEEL"
"""The variable that names the wheel a run must import atout from."""
MODULES = (
    "atout.core",
    "atout.plugins",
    "atout.plugins.bots",
    "atout.ui",
    "atout.variants",
    "atout.testing",
    "atout_sans_tout_atout",
)
"""atout's packages and the example plugin's: each must come from the installed files."""


def wheel_install_problems(wheel: Path) -> list[str]:
    """What shows that this interpreter does not run atout as installed from ``wheel``
    (empty when it does): a module of :data:`MODULES` imported from elsewhere than this
    environment's site-packages, or an atout distribution installed from anything but
    that wheel file."""
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    problems = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            problems.append(f"{name} cannot be imported: {error}")
            continue
        where = Path(module.__file__ or "?").resolve()
        if not where.is_relative_to(site):
            problems.append(f"{name} is imported from {where}, not from {site}")
    try:
        text = importlib.metadata.distribution("atout").read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        text = None
    url = json.loads(text).get("url", "") if text else ""
    source = Path(unquote(urlparse(url).path)).resolve() if url.startswith("file:") else None
    if source != wheel.resolve():
        problems.append(f"atout is installed from {url or 'no file'}, not from {wheel}")
    return problems
