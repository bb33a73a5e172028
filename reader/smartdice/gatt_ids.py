"""Bluetooth identities of the supported dice: GATT UUIDs, company ids, name prefixes."""

from __future__ import annotations

#: Pixels firmware from 2024-09-30 on: its own base UUID a6b9xxxx-...
PIXELS_SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"

#: Older Pixels firmware reused the Nordic UART base, but NOT its layout: the notify
#: characteristic has the service's own UUID and writes go to ...0002.
PIXELS_LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
PIXELS_LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
PIXELS_LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"

PIXELS_COMPANY_ID = 0x0D39  # Systemic Games
PIXELS_LEGACY_COMPANY_ID = 0xFFFF  # "temporary" id used before 2024-09-30
#: Key of the Pixels service data (pixel id + firmware date), the Device Information service.
PIXELS_SERVICE_DATA_UUID = "0000180a-0000-1000-8000-00805f9b34fb"
PIXELS_NAME_PREFIX = "Pixel"

#: GoDice speaks the standard Nordic UART layout: notify on ...0003, write on ...0002.
GODICE_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
GODICE_NAME_PREFIX = "GoDice"
