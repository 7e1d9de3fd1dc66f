"""Entry point of ``python -m ai`` (see ``ai.cli``): the clock of the start-up starts here,
before the imports (``startup_ms``)."""
import time

STARTED = time.perf_counter()

import sys  # noqa: E402

from .cli import main  # noqa: E402

sys.exit(main(started=STARTED))
