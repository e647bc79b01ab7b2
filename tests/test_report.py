"""`caput content summary` and `caput content report`: counts, provenance, effects in English."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "praga"


def caput(*args):
    result = subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_summary_counts_records_components_and_provenance():
    data = json.loads(caput("content", "summary", str(PACK), "--json"))
    assert data["records"]["upgrade"]["by_era"] == {"era 1": {"regular": 11, "special": 4}, "era 2": {"regular": 11, "special": 4}}
    assert data["records"]["technology"]["by_level"] == {f"level {n}": 6 for n in range(1, 5)}
    assert data["components"]["wheel.positions"] == {"total": 12, "by_zone": {"red": 4, "green": 3, "blue": 4, "green_single": 1}}
    assert data["components"]["hex_map.hexes"]["by_type"]["plaza"] == 10
    by_kind = data["provenance_by_kind"]
    assert {p: sum(v[p] for v in by_kind.values()) for p in ("exact", "partial", "reconstructed")} == data["provenance"]
    assert by_kind["scoring"]["reconstructed"] == 0 and by_kind["upgrades"]["reconstructed"] > 0


def test_report_renders_every_effect_in_english():
    data = json.loads(caput("content", "report", "--json"))
    from interpreter.content.ruleset import load_ruleset

    rs = load_ruleset()
    assert len(data["effects"]) == sum(1 for f in rs.fields if f.start == "program")
    for e in data["effects"]:
        assert e["english"] and "_" not in e["english"], e
        assert Path(ROOT / e["file"]).is_file() and e["line"] >= 1
    t4 = next(e for e in data["effects"] if e["where"] == "t4_plaza_reward")
    assert t4["english"] == "Gain the upper and lower rewards of one chosen plaza."


def test_report_text_and_variants():
    text = caput("content", "report", str(PACK), "--variant", str(PACK / "variants" / "crane_b.yaml"))
    assert "with content/praga/variants/crane_b.yaml" in text
    assert "provenance of" in text and "Effects, in plain English:" in text
    assert "Score 1 point for each building tile on the board whose plaza is this tile's plaza." in text
