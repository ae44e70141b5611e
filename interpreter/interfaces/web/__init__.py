"""`ludolex serve`: a game in a web page, played against bots or replayed, each seat seeing only its own view."""
