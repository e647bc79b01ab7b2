"""Hex geometry: one side/corner numbering, shared keys, rotation, rings."""

from interpreter.mechanisms import hexes as board


def test_every_hex_sharing_a_side_or_corner_computes_the_same_key():
    h = (2, -1)
    for side in range(6):
        n = board.neighbour(h, side)
        assert board.side_key(h, side) == board.side_key(n, (side + 3) % 6)
    for corner in range(6):
        key = board.corner_key(h, corner)
        others = [x for x in key if x != h]
        assert len(set(key)) == 3
        # the same vertex seen from each of the other two hexes
        for o in others:
            assert key in {board.corner_key(o, c) for c in range(6)}


def test_rotation_maps_local_to_world_sides():
    assert [board.rotate(k, 2) for k in range(6)] == [2, 3, 4, 5, 0, 1]


def test_the_ring_around_a_seven_hex_flower_has_twelve_hexes():
    flower = [(0, 0)] + [board.neighbour((0, 0), s) for s in range(6)]
    ring = board.ring(flower)
    assert len(ring) == 12
    assert all(any(board.neighbour(r, s) in flower for s in range(6)) for r in ring)


def test_board_tables_and_graph_agree():
    flower = [(0, 0)] + [board.neighbour((0, 0), s) for s in range(6)]
    b = board.build_board(flower)
    assert b.neighbours[(0, 0)] == tuple(board.neighbour((0, 0), s) for s in range(6))
    assert b.neighbours[(1, 0)].count(None) == 3
    assert b.graph.number_of_edges() - 7 * 6 == 12  # hex-hex edges beside the hex-vertex ones
    assert board.connected(b)
    assert not board.connected(board.build_board([(0, 0), (5, 5)]))
