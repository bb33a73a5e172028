"""Everything that turns the world into die faces: virtual dice, camera, smart dice, the command line."""
