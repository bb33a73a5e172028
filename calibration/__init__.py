"""Camera, colour and dice-set calibration, stored as JSON in the user's config folder."""
