"""A simulated Bluetooth world for tests, benches and demos.

:class:`~reader.smartdice.sim.backend.SimWorld` provides bleak backend classes (handed to
bleak through its public ``backend=`` arguments) serving simulated dice that advertise
and notify with real protocol bytes, so the real decoders, link and source run unchanged.
"""
