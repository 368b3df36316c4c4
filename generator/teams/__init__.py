"""Teams, drivers and cars: team specs, presets, car slips, Monaco cards, seasons."""
