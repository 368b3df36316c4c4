"""Formula D kit: corners with stops and long/short paths, scorecards, dashboards, reference cards."""
