"""What players, dealers and operators see. Draws state and sends commands; holds no rules."""
