"""The camera reader for numbered dice (d4, d8, d10, d00, d12, d20), taught once per dice set.

``finder`` finds dice on the play area, ``topface`` turns a die into a rotation-searchable map
of its printed marks, ``model`` matches that map against a taught face model, ``frame`` reads
every die of a frame (the camera source's frame readers), ``teaching`` builds face models from
photos or a live guided pass, ``kinds`` says what each kind shows and what it is worth.
"""
