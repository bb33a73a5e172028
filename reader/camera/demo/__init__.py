"""The recorded clip ``dicetable demo`` plays, and the script that renders it (``make_clip.py``)."""
