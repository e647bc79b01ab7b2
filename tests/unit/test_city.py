"""City map tables: site -> plaza, enclosure, corner matching and plaza majority."""

from types import SimpleNamespace

import pytest

from interpreter.mechanisms import hexes as board
from interpreter.mechanisms.hex_map import (
    HexMap,
    build_hex_map,
    corner_matches,
    corner_tables,
    enclosed,
    legal_sites,
    majority,
)
from interpreter.errors import RulesError
from interpreter.paths import default_pack
from interpreter.content.ruleset import load_ruleset

C = "c1"  # the colour under test
X = "c2"  # another colour


@pytest.fixture(scope="module")
def city():
    return load_ruleset(default_pack()).single("hex_map")


@pytest.fixture(scope="module")
def cmap(city):
    return build_hex_map(city)


def icons(*local, colour=C):
    """Six local corners with `colour` at the given indices and 'none' elsewhere."""
    return tuple(colour if k in local else "none" for k in range(6))


def small_map(coords, printed=None):
    """A HexMap of plain site hexes named h0, h1, ... at the given axial coordinates."""
    hexes = {f"h{i}": xy for i, xy in enumerate(coords)}
    return HexMap(
        hexes=hexes,
        at={xy: hid for hid, xy in hexes.items()},
        types={hid: "site" for hid in hexes},
        roles={hid: "site" for hid in hexes},
        sites=tuple(hexes),
        area_of={},
        sites_of={},
        printed=printed or {},
        **corner_tables(hexes),
    )


# The vertex at corner 0 of (0, 0) is corner 2 of (1, 0) and corner 4 of (0, 1);
# the vertex at corner 3 of (0, 0) is corner 5 of (-1, 0) and corner 1 of (0, -1).
O, E, SE, W, NW = (0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)


# ---------------------------------------------------------------- bundled map

def test_every_site_of_the_bundled_map_touches_exactly_one_plaza(city, cmap):
    sites = [h.id for h in city.hexes if h.type == "site"]
    assert cmap.sites == tuple(sites) and len(sites) == 51
    for s in sites:
        around = {cmap.at.get(board.neighbour(cmap.hexes[s], k)) for k in range(6)}
        plazas = [h for h in around if h is not None and cmap.types[h] == "plaza"]
        assert plazas == [cmap.area_of[s]]


def test_sites_of_is_the_inverse_of_plaza_of(cmap):
    plazas = [h for h, t in cmap.types.items() if t == "plaza"]
    assert sorted(cmap.sites_of) == sorted(plazas) and len(plazas) == 10
    pairs = {(p, s) for p, ss in cmap.sites_of.items() for s in ss}
    assert pairs == {(p, s) for s, p in cmap.area_of.items()}
    assert sum(len(ss) for ss in cmap.sites_of.values()) == len(cmap.sites)
    assert cmap.sites_of["plaza_o4"] == ("site_o4_e", "site_o4_w", "site_o4_nw", "site_o4_ne")


def test_tables_match_the_file(city, cmap):
    assert len(cmap.hexes) == len(city.hexes)
    assert cmap.roles["plaza_o1"] == "area" and cmap.roles["site_o1_e"] == "site" and cmap.roles["road_04"] == "route"
    assert all(cmap.at[cmap.hexes[h]] == h for h in cmap.hexes)
    assert cmap.types["plaza_o1"] == "plaza" and cmap.hexes["plaza_o1"] == (4, -2)
    assert sum(len(v) for v in cmap.printed.values()) == len(city.corners)
    assert cmap.printed[board.corner_key((8, 2), 0)] == ("blue",)


def test_legal_sites_shrink_when_a_site_is_occupied(cmap):
    everything = legal_sites(cmap, set())
    assert everything == list(cmap.sites)
    after = legal_sites(cmap, {"site_n2_e"})
    assert len(after) == len(everything) - 1 and "site_n2_e" not in after
    assert after == [s for s in everything if s != "site_n2_e"]  # file order kept
    assert not any(cmap.types[s] == "plaza" for s in everything)


def test_enclosure_flips_exactly_when_the_last_site_fills(cmap):
    for plaza, sites in cmap.sites_of.items():
        occupied = {s for p, ss in cmap.sites_of.items() if p != plaza for s in ss}  # every other plaza full
        for s in sites:
            assert not enclosed(cmap, plaza, occupied)
            occupied.add(s)
        assert enclosed(cmap, plaza, occupied)


def test_a_printed_icon_on_the_bundled_map_pays(cmap):
    # site_n3_ne shows a printed icon at its corner 0 (file comment: meets site and site)
    assert corner_matches(cmap, "site_n3_ne", 0, icons(0, colour="blue"), "blue", {}) == 1
    assert corner_matches(cmap, "site_n3_ne", 1, icons(0, colour="blue"), "blue", {}) == 0


def test_a_site_without_exactly_one_plaza_is_an_error():
    def hexes(*specs):
        return [SimpleNamespace(id=i, at=list(xy), type=t) for i, xy, t in specs]

    types = {"site": SimpleNamespace(role="site"), "plaza": SimpleNamespace(role="area"), "road": SimpleNamespace(role="route")}
    lonely = SimpleNamespace(hexes=hexes(("s", O, "site"), ("r", E, "road")), corners=[], hex_types=types)
    with pytest.raises(RulesError, match="'s' touches 0 area hexes"):
        build_hex_map(lonely)
    torn = SimpleNamespace(hexes=hexes(("s", O, "site"), ("p", E, "plaza"), ("q", W, "plaza")), corners=[], hex_types=types)
    with pytest.raises(RulesError, match="'s' touches 2 area hexes"):
        build_hex_map(torn)


# ---------------------------------------------------------------- corner matching

def test_a_single_match_gives_one():
    m = small_map([O, E])
    assert corner_matches(m, "h0", 0, icons(0), C, {"h1": (icons(2), 0)}) == 1
    # seen from the other tile, the same vertex matches too
    assert corner_matches(m, "h1", 0, icons(2), C, {"h0": (icons(0), 0)}) == 1


def test_no_match_without_a_neighbouring_icon():
    m = small_map([O, E])
    assert corner_matches(m, "h0", 0, icons(0), C, {}) == 0
    assert corner_matches(m, "h0", 0, icons(0), C, {"h1": (icons(0, 1, 3, 4, 5), 0)}) == 0


def test_two_icons_meeting_two_different_tiles_give_two():
    m = small_map([O, E, W])
    placed = {"h1": (icons(2), 0), "h2": (icons(5), 0)}
    assert corner_matches(m, "h0", 0, icons(0, 3), C, placed) == 2


def test_third_tile_on_a_vertex_where_two_icons_already_meet_gains_two():
    m = small_map([O, E, SE])
    placed = {"h1": (icons(2), 0), "h2": (icons(4), 0)}  # already matched each other
    assert corner_matches(m, "h0", 0, icons(0), C, placed) == 2


def test_rotation_moves_the_icon():
    m = small_map([O, E])
    placed = {"h1": (icons(2), 0)}
    assert corner_matches(m, "h0", 0, icons(3), C, placed) == 0  # local 3 faces west, away from h1
    assert corner_matches(m, "h0", 3, icons(3), C, placed) == 1  # rotated: local 3 shows at world corner 0
    # the neighbour's rotation is honoured as well: local 0 turned by 2 shows at its world corner 2
    assert corner_matches(m, "h0", 0, icons(0), C, {"h1": (icons(0), 2)}) == 1
    assert corner_matches(m, "h0", 0, icons(0), C, {"h1": (icons(2), 1)}) == 0


def test_a_printed_icon_counts_for_every_building():
    key = board.corner_key(O, 0)
    m = small_map([O, E], printed={key: (C,)})
    assert corner_matches(m, "h0", 0, icons(0), C, {}) == 1
    # once per building (OPEN-40): a second building still matches it, plus the first tile
    assert corner_matches(m, "h1", 0, icons(2), C, {"h0": (icons(0), 0)}) == 2


def test_an_icon_of_another_colour_does_not_count():
    key = board.corner_key(O, 0)
    m = small_map([O, E], printed={key: (X,)})
    assert corner_matches(m, "h0", 0, icons(0), C, {"h1": (icons(2, colour=X), 0)}) == 0
    assert corner_matches(m, "h0", 0, icons(0, colour=X), C, {"h1": (icons(2), 0)}) == 0
    assert corner_matches(m, "h0", 0, icons(0, colour=X), X, {"h1": (icons(2, colour=X), 0)}) == 2


# ---------------------------------------------------------------- majority

def test_majority_clear_winner():
    assert majority({0: 2, 1: 1}, {0: 1, 1: 9}) == ({0}, {1})


def test_majority_tie_broken_by_spend():
    # EX-19: Red 2 cubes sum 6, Blue 2 cubes sum 5, Yellow 1 cube
    assert majority({0: 2, 1: 2, 2: 1}, {0: 6, 1: 5, 2: 3}) == ({0}, {1, 2})


def test_majority_full_tie_makes_all_tied_the_majority():
    assert majority({0: 2, 1: 2, 2: 1}, {0: 6, 1: 6, 2: 9}) == ({0, 1}, {2})


def test_majority_excludes_non_claimants():
    assert majority({0: 0, 1: 1, 2: 0}, {0: 9, 1: 0, 2: 9}) == ({1}, set())
    assert majority({0: 0, 1: 0}, {0: 3}) == (set(), set())
    assert majority({}, {}) == (set(), set())


def test_the_graph_tables_agree_with_the_axial_formula(cmap):
    """Vertex neighbours read from the networkx graph match the geometry (corner w of h is corner
    w+2 of the hex across side w and corner w+4 of the hex across side w+1)."""
    from interpreter.mechanisms.hexes import neighbour

    for hid, h in cmap.hexes.items():
        for w in range(6):
            expected = {(cmap.at[o], oc % 6) for o, oc in ((neighbour(h, w), w + 2), (neighbour(h, w + 1), w + 4))
                        if o in cmap.at}
            assert set(cmap.vertex[hid][w]) == expected
