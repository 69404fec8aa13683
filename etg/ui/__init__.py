"""What players, dealers and operators see. Draws state and sends commands; holds no rules."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on the kiosk's console
