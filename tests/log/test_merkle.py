"""The log's Merkle tree and proofs (``domain.transparency``) against RFC 9162 §2.1 as ``rfc9162`` reads it."""

import pytest

from domain import transparency as log
from tests.log import rfc9162

LEAVES = [f"leaf {i}".encode() for i in range(70)]


def _complete_subtrees(leaves: list[bytes]) -> dict[log.Node, bytes]:
    """Every complete subtree's hash, built leaf by leaf as the archive builds them (``completed``)."""
    nodes: dict[log.Node, bytes] = {}
    for index, leaf in enumerate(leaves):
        for level, position in log.completed(index):
            nodes[(level, position)] = (log.leaf_hash(leaf) if level == 0 else
                                        log.node_hash(nodes[(level - 1, 2 * position)],
                                                      nodes[(level - 1, 2 * position + 1)]))
    return nodes


NODES = _complete_subtrees(LEAVES)


def test_hashes_are_rfc9162s_with_their_prefixes():
    assert log.leaf_hash(b"x") == rfc9162.leaf_hash(b"x")
    assert log.root_hash(0, NODES.__getitem__) == rfc9162.mth([])
    for size in range(1, len(LEAVES) + 1):
        assert log.root_hash(size, NODES.__getitem__) == rfc9162.mth(LEAVES[:size])


def test_root_reads_one_subtree_per_bit_of_the_size():
    assert log.root_nodes(2**20 + 2**7 + 1) == [(20, 0), (7, 2**13 + 0), (0, 2**20 + 2**7)]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 64, 70])
def test_inclusion_proofs_are_rfc9162s_path_and_verify(size):
    root = rfc9162.mth(LEAVES[:size])
    for index in range(size):
        proof = log.inclusion_proof(index, size, NODES.__getitem__)
        assert proof == rfc9162.path(index, LEAVES[:size])
        assert rfc9162.verify_inclusion(index, size, rfc9162.leaf_hash(LEAVES[index]), proof, root)
        assert log.verify_inclusion(log.leaf_hash(LEAVES[index]), index, size, proof, root)
        assert not log.verify_inclusion(log.leaf_hash(b"other"), index, size, proof, root)


def test_consistency_proofs_are_rfc9162s_proof_and_verify():
    for second in range(1, 40):
        second_root = rfc9162.mth(LEAVES[:second])
        for first in range(1, second):
            proof = log.consistency_proof(first, second, NODES.__getitem__)
            assert proof == rfc9162.proof(first, LEAVES[:second])
            first_root = rfc9162.mth(LEAVES[:first])
            assert rfc9162.verify_consistency(first, second, first_root, second_root, proof)
            assert log.verify_consistency(first, second, first_root, second_root, proof)
            assert not log.verify_consistency(first, second, rfc9162.mth(LEAVES[1:first + 1]), second_root, proof)


def test_a_proof_reads_only_logarithmically_many_subtrees():
    size = 10_000_000
    assert len(set(log.inclusion_nodes(1234567, size))) <= 2 * size.bit_length()
    assert len(set(log.consistency_nodes(7654321, size))) <= 3 * size.bit_length()


def test_a_proof_outside_the_tree_is_refused():
    with pytest.raises(log.ProofError):
        log.inclusion_proof(5, 5, NODES.__getitem__)
    with pytest.raises(log.ProofError):
        log.consistency_proof(6, 5, NODES.__getitem__)


def test_a_leaf_is_canonical_json_with_its_index_where_the_script_puts_it():
    leaf = log.Leaf(kind=log.VERDICT, time_ms=1, run="r1", origin="open", variant="classic", seed="s\u00e9",
                    moves=log.moves_hash(["f"]), verdict="verified", score=12, ruleset="r", engine="e", player="p")
    head, tail = leaf.text_around_index()
    text = head + "41" + tail
    assert text == log.leaf_text(leaf, 41)
    assert log.parse_leaf(text)["index"] == 41
    assert list(log.parse_leaf(text)) == sorted(log.parse_leaf(text))
    with pytest.raises(ValueError):
        log.parse_leaf(text.replace(":", ": ", 1))


def test_a_checkpoint_is_three_lines():
    checkpoint = log.Checkpoint("example.org/log", 7, rfc9162.mth(LEAVES[:7]))
    assert checkpoint.text().count("\n") == 3
    assert log.parse_checkpoint(checkpoint.text()) == checkpoint
    for size in ("¹", "07", "-7", ""):  # "¹" a digit to str.isdigit, not a number to int
        with pytest.raises(ValueError, match="not a checkpoint"):
            log.parse_checkpoint(checkpoint.text().replace("\n7\n", f"\n{size}\n"))
