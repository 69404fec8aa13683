"""YAML configuration: paytables and the cabinet file, loaded strictly.

Operators edit these files by hand, so a mistake must be caught before the
table opens and pointed at exactly: every problem is reported as
``FILE:LINE:COLUMN: key.path: message``, and nothing in a file is executed.
"""

from etg.config.cabinet import Cabinet, Display
from etg.config.loader import LoadedPaytable, default_config_dir, load_cabinet, load_paytable
from etg.config.problems import ConfigError, Problem

__all__ = [
    "Cabinet",
    "ConfigError",
    "Display",
    "LoadedPaytable",
    "Problem",
    "default_config_dir",
    "load_cabinet",
    "load_paytable",
]
