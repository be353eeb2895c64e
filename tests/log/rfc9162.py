"""RFC 9162 §2.1 written out a second time, straight from the RFC's text over a list of leaves, for the
tests: the Merkle tree hash, PATH and PROOF as the RFC defines them recursively, and its two verification
algorithms. Nothing here is shared with ``domain.transparency``: a proof the service returns is checked
by this independent reading."""

import hashlib


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def leaf_hash(leaf: bytes) -> bytes:
    return _h(b"\x00" + leaf)


def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(leaves: list[bytes]) -> bytes:
    """MTH(D[n]) over the leaves' data."""
    n = len(leaves)
    if n == 0:
        return _h(b"")
    if n == 1:
        return leaf_hash(leaves[0])
    k = _k(n)
    return _h(b"\x01" + mth(leaves[:k]) + mth(leaves[k:]))


def path(m: int, leaves: list[bytes]) -> list[bytes]:
    n = len(leaves)
    if n == 1:
        return []
    k = _k(n)
    if m < k:
        return path(m, leaves[:k]) + [mth(leaves[k:])]
    return path(m - k, leaves[k:]) + [mth(leaves[:k])]


def _subproof(m: int, leaves: list[bytes], b: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if b else [mth(leaves)]
    k = _k(n)
    if m <= k:
        return _subproof(m, leaves[:k], b) + [mth(leaves[k:])]
    return _subproof(m - k, leaves[k:], False) + [mth(leaves[:k])]


def proof(m: int, leaves: list[bytes]) -> list[bytes]:
    return _subproof(m, leaves, True)


def _lsb(x: int) -> bool:
    return bool(x & 1)


def verify_inclusion(leaf_index: int, tree_size: int, hash_: bytes, inclusion_path: list[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2, step by step."""
    if leaf_index >= tree_size:
        return False
    fn, sn, r = leaf_index, tree_size - 1, hash_
    for p in inclusion_path:
        if sn == 0:
            return False
        if _lsb(fn) or fn == sn:
            r = _h(b"\x01" + p + r)
            if not _lsb(fn):
                while not (_lsb(fn) or fn == 0):
                    fn >>= 1
                    sn >>= 1
        else:
            r = _h(b"\x01" + r + p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(first: int, second: int, first_hash: bytes, second_hash: bytes,
                       consistency_path: list[bytes]) -> bool:
    """RFC 9162 §2.1.4.2, step by step (for 0 < first < second)."""
    if not consistency_path:
        return False
    path_ = list(consistency_path)
    if first & (first - 1) == 0:
        path_ = [first_hash, *path_]
    fn, sn = first - 1, second - 1
    if _lsb(fn):
        while _lsb(fn):
            fn >>= 1
            sn >>= 1
    fr = sr = path_[0]
    for c in path_[1:]:
        if sn == 0:
            return False
        if _lsb(fn) or fn == sn:
            fr = _h(b"\x01" + c + fr)
            sr = _h(b"\x01" + c + sr)
            if not _lsb(fn):
                while not (_lsb(fn) or fn == 0):
                    fn >>= 1
                    sn >>= 1
        else:
            sr = _h(b"\x01" + sr + c)
        fn >>= 1
        sn >>= 1
    return fr == first_hash and sr == second_hash and sn == 0
