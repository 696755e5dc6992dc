"""The calculator code as one file per page for the browser: the Pyodide worker fetches
``manifest.json`` (per calculator, the name of its pack and the path, offset and length of each
file in it), then ``code.<calculator>.<hash>.pack`` (the source and bytecode files that calculator
imports, concatenated; ``<hash>`` from its bytes, ``atlas.assets.hashed_name``) instead of some
thirty small files that would compete with Pyodide's own downloads."""
from __future__ import annotations


def pack(files: list[tuple[str, bytes]]) -> tuple[list[list], bytes]:
    """Concatenate ``files`` (``(path, content)`` pairs, kept in the given order).
    Returns (index, blob): index rows are ``[path, offset, length]`` in bytes."""
    index, parts, offset = [], [], 0
    for rel, data in files:
        index.append([rel, offset, len(data)])
        parts.append(data)
        offset += len(data)
    return index, b"".join(parts)


def unpack(index: list[list], blob: bytes) -> dict[str, bytes]:
    """The files of a pack, path -> bytes. Raises ValueError if an entry lies outside the blob."""
    out = {}
    for rel, offset, length in index:
        if offset < 0 or length < 0 or offset + length > len(blob):
            raise ValueError(f"pack entry {rel!r} ({offset}+{length}) lies outside the {len(blob)}-byte pack")
        out[rel] = blob[offset:offset + length]
    return out
