"""Camera reader: find dice in a webcam frame and read their top faces."""
