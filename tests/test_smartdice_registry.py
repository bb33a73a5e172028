"""The dice registry and the ``dicetable dice`` commands, and checks from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.store import config_dir
from reader.cli.main import main
from reader.smartdice.errors import RegistryError
from reader.smartdice.registry import REGISTRY_FILE, Family, RegisteredDie, Registry
from rules.dice import Role


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_registry_round_trip_and_rules() -> None:
    registry = Registry.load()
    assert registry.dice == []
    registry.add(RegisteredDie("06f08a5a", Family.PIXELS, "d20", colour="red", name="Francis", role=Role.WILD))
    registry.add(RegisteredDie("8A8272", Family.GODICE, "d00", colour="black", address="AA:BB"))
    registry.save()
    again = Registry.load()
    assert again.dice == registry.dice
    assert again.find("francis").die_id == "06f08a5a"
    assert again.find("aa:bb").family is Family.GODICE
    assert [d.sides for d in again.dice] == [20, 10]
    with pytest.raises(RegistryError, match="already registered"):
        again.add(RegisteredDie("06F08A5A", Family.PIXELS, "d6"))
    with pytest.raises(RegistryError, match="taken"):
        again.add(RegisteredDie("11111111", Family.PIXELS, "d6", name="FRANCIS"))
    with pytest.raises(RegistryError, match="cannot be a 'd7'"):
        RegisteredDie("x", Family.GODICE, "d7")
    with pytest.raises(RegistryError, match="fudge"):
        RegisteredDie("x", Family.GODICE, "fudge")  # only Pixels make fudge dice
    assert RegisteredDie("x", Family.PIXELS, "fudge").sides == 3  # a fudge die answers for a d3
    again.add(RegisteredDie("22222222", Family.PIXELS, "d6", role=Role.WILD))  # takes the role over
    assert [d.role for d in again.of_family(Family.PIXELS)] == [None, Role.WILD]
    assert again.remove("8a8272").die_id == "8A8272"
    with pytest.raises(RegistryError):
        again.remove("nobody")


@pytest.mark.parametrize("content", ["not json", '{"dice": 3}', '{"dice": [{"die_id": "x", "family": "lego"}]}',
                                     '{"dice": [{"die_id": 5, "family": "pixels", "die_type": "d6"}]}'])
def test_corrupt_registry_is_a_clear_error(content: str, capsys: pytest.CaptureFixture[str]) -> None:
    (config_dir() / REGISTRY_FILE).write_text(content)
    code, _, err = run(capsys, "dice", "list")
    assert code == 2 and err.startswith("dicetable: error:") and "Traceback" not in err


def test_dice_commands_on_the_simulated_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "scan", "--sim", "--seconds", "0.3", "--json")
    rows = json.loads(out)["dice"]
    assert code == 0 and {r["family"] for r in rows} == {"pixels", "godice"}
    assert all(r["battery"] is not None for r in rows if r["family"] == "pixels")
    assert {r["colour"] for r in rows if r["family"] == "godice"} == {"red", "black", "green", "blue"}
    code, out, _ = run(capsys, "dice", "add", "51000004", "--sim", "--name", "big")
    assert code == 0 and "d20" in out  # the type came from the advertisement
    code, out, _ = run(capsys, "dice", "add", "5A0000", "--sim", "--type", "d10")
    assert code == 0 and "red d10" in out  # the colour came from the GoDice name
    code, _, err = run(capsys, "dice", "add", "99999999", "--sim", "--seconds", "0.2")
    assert code == 2 and "no smart die" in err
    code, out, _ = run(capsys, "dice", "list", "--json")
    assert [(d["die_id"], d["die_type"], d["name"]) for d in json.loads(out)["dice"]] == [
        ("51000004", "d20", "big"), ("5A0000", "d10", None)]
    code, out, _ = run(capsys, "dice", "remove", "big")
    assert code == 0 and "removed" in out
    assert [d.die_id for d in Registry.load().dice] == ["5A0000"]


def _register(capsys: pytest.CaptureFixture[str], family: str, ids: list[str], colours: list[str]) -> None:
    for die_id, colour in zip(ids, colours):
        assert run(capsys, "dice", "add", die_id, "--family", family, "--type", "d6", "--colour", colour)[0] == 0


@pytest.mark.parametrize("family, ids, colours", [
    ("pixels", ["51000001", "51000002", "51000003"], ["red", "white", "grey"]),
    ("godice", ["5A0000", "5A0001", "5A0002"], ["red", "black", "green"]),
])
def test_check_opend6_from_the_command_line(family: str, ids: list[str], colours: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    _register(capsys, family, ids, colours)
    code, out, err = run(capsys, "check", "opend6", "--code", "3D", "--difficulty", "10", "--source",
                         f"{family}:sim", "--wild", "red", "--seed", "7", "--json", "--led")
    assert code == 0, err
    result = json.loads(out)
    first = result["faces"][0]
    assert (first["role"], first["colour"], first["die_id"]) == ("wild", "red", ids[0])
    assert {f["die_id"] for f in result["faces"]} <= set(ids)
    assert "roll wild d6 (red)" in err


def test_hardware_source_without_registered_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "opend6", "--code", "3D", "--difficulty", "10", "--source", "godice")
    assert code == 2 and "no godice dice are registered" in err


def test_real_radio_failure_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    _register(capsys, "pixels", ["51000001", "51000002", "51000003"], ["red", "blue", "green"])
    code, _, err = run(capsys, "check", "opend6", "--code", "3D", "--difficulty", "10", "--source", "pixels",
                       "--timeout", "1")
    # without an adapter bleak cannot scan; with one, nobody rolls: either way a one-line error
    assert code == 2 and "dicetable: error:" in err and "Traceback" not in err


def test_unknown_source_option(capsys: pytest.CaptureFixture[str]) -> None:
    _register(capsys, "pixels", ["51000001"], ["red"])
    code, _, err = run(capsys, "check", "opend6", "--code", "1D", "--difficulty", "5", "--source", "pixels:radio")
    assert code == 2 and "pixels:sim" in err


def test_registry_file_lives_in_the_config_dir(dicetable_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _register(capsys, "godice", ["5A0009"], ["orange"])
    data = json.loads((dicetable_home / REGISTRY_FILE).read_text())
    assert data["version"] == 1 and data["dice"][0]["colour"] == "orange"
