"""ETG: dealer-controlled electronic Casino War with the Bonus Spin Xtreme wheel."""

__version__ = "0.1.0"
