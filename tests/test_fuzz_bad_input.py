"""Issue 24, done when: generated bad input across the three games (options out of range or of the wrong
kind, --set keys and values, bots, scenario names, scenario files, --out places) drives `sim run`,
`sim trace` and `sim rules` and the scenario loader. Every case must exit 2 with one line on stderr naming
the problem, no traceback, and write nothing."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_cli import run_sim

from sim.core.errors import UserError
from sim.core.registry import all_games
from sim.core.runner import MAX_CHUNK, MAX_GAMES, MAX_JOBS, MAX_SEED
from sim.core.scenario import list_scenarios, load_scenario
from sim.workflow.common import numeric_fields

GAMES = dict(all_games())
EXAMPLES = 150


def _bool_fields(spec) -> list[str]:
    return [n for n, f in spec.rules_model.model_fields.items() if f.annotation is bool]


def _int_fields(spec) -> list:
    return [f for f in numeric_fields(spec.rules_model) if f.is_int]


game_names = st.sampled_from(sorted(GAMES))
word = st.from_regex(r"[a-z][a-z_]{2,11}", fullmatch=True)


@st.composite
def bad_number_option(draw, game):
    option, values = draw(st.sampled_from([
        ("--games", st.integers(-10**30, 0) | st.integers(MAX_GAMES + 1, 10**30)),
        ("--seed", st.integers(-10**30, -1) | st.integers(MAX_SEED + 1, 10**30)),
        ("--jobs", st.integers(-10**9, -2) | st.just(0) | st.integers(MAX_JOBS + 1, 10**9)),
        ("--chunk-size", st.integers(-10**9, 0) | st.integers(MAX_CHUNK + 1, 10**15)),
    ]))
    value = draw(values | st.sampled_from(["1e20", "ten", "2.5", "²", "", "0x10"]))
    return ["run", game, f"{option}={value}"] + (["--games=50"] if option != "--games" else [])


@st.composite
def bad_trace_option(draw, game):
    option = draw(st.sampled_from(["--seed", "--index"]))
    top = MAX_SEED if option == "--seed" else MAX_GAMES - 1
    value = draw(st.integers(-10**25, -1) | st.integers(top + 1, 10**25))
    return ["trace", game, f"{option}={value}"]


@st.composite
def bad_setting(draw, game):
    spec = GAMES[game]
    fields = spec.rules_model.model_fields
    kinds = ["unknown", "nokey"]
    ints = _int_fields(spec)
    bools = _bool_fields(spec)
    if ints:
        kinds += ["bool-for-int", "range", "text-for-int"]
    if bools:
        kinds.append("int-for-bool")
    kind = draw(st.sampled_from(kinds))
    if kind == "unknown":
        key = draw(word.filter(lambda k: k not in fields))
        setting = f"{key}=1"
    elif kind == "nokey":
        setting = draw(st.sampled_from(["=3", "players", " = 1", "a b=2", "x..y=1"]))
    elif kind == "bool-for-int":
        setting = f"{draw(st.sampled_from(ints)).name}={draw(st.sampled_from(['true', 'false']))}"
    elif kind == "text-for-int":
        setting = f"{draw(st.sampled_from(ints)).name}={draw(st.sampled_from(['many', '[1, 2]', '1.5', '{a = 1}']))}"
    elif kind == "int-for-bool":
        setting = f"{draw(st.sampled_from(bools))}={draw(st.integers(-5, 5))}"
    else:
        field = draw(st.sampled_from(ints))
        beyond = draw(st.integers(1, 10**6))
        sides = [v for v in (field.lo - beyond if field.lo > -1e18 else None,
                             field.hi + beyond if field.hi < 1e18 else None) if v is not None]
        setting = f"{field.name}={int(draw(st.sampled_from(sides)))}"
    command = draw(st.sampled_from(["run", "rules", "trace"]))
    return [command, game, "--set", setting] + (["--games=50"] if command == "run" else [])


@st.composite
def bad_policy(draw, game):
    spec = GAMES[game]
    every = {b for r in spec.roles for b in spec.choices(r)}
    role = draw(st.sampled_from(spec.roles))
    kind = draw(st.sampled_from(["role", "bot", "all", "budget", "form"]))
    if kind == "role":
        policy = f"{draw(word.filter(lambda r: r not in spec.roles and r != 'all'))}=random"
    elif kind == "bot":
        policy = f"{role}={draw(word.filter(lambda b: b not in every))}"
    elif kind == "all":
        policy = f"all={draw(word.filter(lambda b: b not in every))}"
    elif kind == "budget":
        name = spec.search.options[0][0] if spec.search else "rollouts"
        value = draw(st.just("0") | st.integers(65_537, 10**25).map(str) | st.sampled_from(["²", "-1", "x", "1.5"]))
        policy = f"{role}=search:{name}={value}"
    else:
        policy = draw(st.sampled_from(["=random", f"{role}=", "noequals"]))
    return ["run", game, "--policy", policy, "--games=50"]


@st.composite
def bad_scenario_name(draw, game):
    known = list_scenarios(game)
    name = draw(word.filter(lambda n: n not in known) | st.sampled_from(
        ["", " ", "../island-nation/strict-evac", "../ocracoke/base", "../../etc/passwd", "a/b", "base/../base"]))
    command = draw(st.sampled_from(["run", "rules"]))
    return [command, game, "--scenario", name] + (["--games=50"] if command == "run" else [])


@st.composite
def bad_scenario_file(draw, game):
    """(file bytes, args) for a scenario file that must be refused."""
    spec = GAMES[game]
    fields = spec.rules_model.model_fields
    ints = _int_fields(spec)
    content = draw(st.sampled_from(["bytes", "toml", "top", "key", "type", "empty", "extends"]))
    if content == "bytes":
        data = b"description = \"" + draw(st.binary(min_size=1, max_size=8).map(lambda b: b"\xff" + b)) + b"\"\n"
    elif content == "toml":
        data = draw(st.sampled_from([b"[rules\n", b"x = \n", b"= 1\n", b"[rules]\nplayers = 4\nplayers = 5\n"]))
    elif content == "top":
        data = f'extends = "base"\n{draw(word.filter(lambda k: k not in ("description", "extends", "rules", "assumed")))} = 1\n'.encode()
    elif content == "key":
        data = f'extends = "base"\n[rules]\n{draw(word.filter(lambda k: k not in fields))} = 1\n'.encode()
    elif content == "type" and ints:
        value = draw(st.sampled_from(["true", "false", '"x"']))
        data = f'extends = "base"\n[rules]\n{draw(st.sampled_from(ints)).name} = {value}\n'.encode()
    elif content == "extends":
        data = f'extends = "{draw(word.filter(lambda n: n not in list_scenarios(game)))}"\n'.encode()
    else:
        data = b""
    return data


@st.composite
def bad_out(draw, game):
    where = draw(st.sampled_from(["file", "below"]))
    return where, ["run", game, "--games=50", "--jobs", draw(st.sampled_from(["1", "2"]))]


@st.composite
def case(draw):
    game = draw(game_names)
    kind = draw(st.sampled_from(["number", "trace", "set", "policy", "name", "file", "out"]))
    if kind == "number":
        return draw(bad_number_option(game)), None, None
    if kind == "trace":
        return draw(bad_trace_option(game)), None, None
    if kind == "set":
        return draw(bad_setting(game)), None, None
    if kind == "policy":
        return draw(bad_policy(game)), None, None
    if kind == "name":
        return draw(bad_scenario_name(game)), None, None
    if kind == "file":
        return ["run", game, "--games=50", "--scenario"], draw(bad_scenario_file(game)), None
    where, args = draw(bad_out(game))
    return args, None, where


def snapshot(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*")}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(case())
def test_generated_bad_input_exits_2_with_one_line_and_writes_nothing(example):
    args, scenario_bytes, out_where = example
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        args = list(args)
        if scenario_bytes is not None:
            (root / "bad.toml").write_bytes(scenario_bytes)
            args.append(str(root / "bad.toml"))
        if out_where is not None:
            (root / "f").write_text("x")
            args += ["--out", str(root / "f") if out_where == "file" else str(root / "f" / "run")]
        before = snapshot(root)
        proc = run_sim(*args, cwd=root)
        assert proc.returncode == 2, (args, proc.returncode, proc.stdout[-500:], proc.stderr)
        assert "Traceback" not in proc.stdout + proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, proc.stderr)
        assert snapshot(root) == before, args


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(game_names.flatmap(lambda g: st.tuples(st.just(g), bad_scenario_file(g))))
def test_the_scenario_loader_refuses_bad_files_with_a_user_error(example):
    game, data = example
    spec = GAMES[game]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bad.toml"
        path.write_bytes(data)
        with pytest.raises(UserError) as err:
            load_scenario(game, spec.rules_model, path)
        assert str(path) in str(err.value) and "\n" not in str(err.value)
