"""Bluetooth smart dice (Pixels by Systemic Games, GoDice by Particula).

Pure decoders and encoders turn protocol bytes into typed events (``pixels_*``, ``godice_*``);
``throws`` turns die events into throws; ``link`` scans, connects and reconnects through
bleak; ``source`` is the :class:`reader.sources.base.DiceSource` the command line opens;
``registry`` keeps the player's dice. ``sim`` is a simulated bleak backend with simulated dice.
"""
