"""Entry point of ``python -m ai`` (see ``ai.cli``)."""
import sys

from .cli import main

sys.exit(main())
