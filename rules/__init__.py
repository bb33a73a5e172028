"""Pure dice vocabulary and check resolvers of the five rule systems.

Nothing in this package reads a camera, a radio or a serial port, and nothing in it
rolls a die: resolvers *ask* for dice (see :mod:`rules.protocol`) and receive faces.
"""
