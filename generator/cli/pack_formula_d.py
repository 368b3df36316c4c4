"""``paddock pack formula-d`` (registered by the Formula D kit)."""
