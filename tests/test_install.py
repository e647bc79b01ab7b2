"""A non-editable install carries the content packs, the grammar and the schemas."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_carries_the_data_and_validates_from_anywhere(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(wheels), str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("caput-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "interpreter/dsl/effect.lark" in names
    assert "interpreter/_bundled/content/praga/pack.yaml" in names
    assert "interpreter/_bundled/content/praga/variants/crane_b.yaml" in names
    assert "interpreter/_bundled/schemas/praga/walls.schema.json" in names

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("CAPUT_PACK", None)
    probe = subprocess.run([sys.executable, "-c", "import interpreter; print(interpreter.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.strip().startswith(str(site))
    result = subprocess.run([sys.executable, "-m", "interpreter", "validate"], cwd=elsewhere, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: bundled pack: pack 'praga'" in result.stdout
    result = subprocess.run([sys.executable, "-m", "interpreter", "schema", "--check"], cwd=elsewhere, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
