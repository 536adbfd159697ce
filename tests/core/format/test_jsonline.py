"""JSON.stringify-exact serialisation (checked against Node) and JSON.parse-like reading."""

from __future__ import annotations

import json
import math
import subprocess

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from pitui.core.format.jsonline import dumps, parse_line

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


def test_numbers_as_javascript_prints_them() -> None:
    cases = {
        9e-06: "0.000009",
        1.0: "1",
        1e21: "1e+21",
        1e16: "10000000000000000",
        1.5e-7: "1.5e-7",
        -0.0: "0",
    }
    for number, text in cases.items():
        assert dumps(number) == text


def test_strings_controls_and_surrogates() -> None:
    assert dumps({"a": 'é\n"\x1b', "b": "\ud800"}) == '{"a":"é\\n\\"\\u001b","b":"\\ud800"}'


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_round_trip(value: object) -> None:
    text = dumps(value)
    assert dumps(parse_line(text.encode("utf-8", "surrogatepass"))) == text


def test_same_bytes_as_node(pi_oracle: object) -> None:
    from oracle import _installed_node

    values = [
        {"cost": {"input": 9e-06, "total": 0.00123}, "n": [1.0, 2.5e25, -1e-7], "s": "ü\u2028\t"}
    ]
    node = _installed_node()
    script = "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{for(const l of d.trim().split('\\n'))console.log(JSON.stringify(JSON.parse(l)))})"
    data = "\n".join(json.dumps(v) for v in values)
    out = subprocess.run(
        [node, "-e", script], input=data, capture_output=True, text=True, check=True
    ).stdout
    assert out.rstrip("\n").split("\n") == [dumps(v) for v in values]


_HUGE = "1" + "0" * 4400  # past Python's int() of text (4,300 digits): JSON.parse's Infinity
_SURROGATE = '"\\ud800"'  # a lone surrogate: orjson refuses the line whatever its numbers
_NUMBER_LINES = [
    '{"details":{"n":' + _HUGE + '},"keep":"the answer"}',
    '{"input":-' + "9" * 5000 + ',"output":1}',
    '{"a":' + _HUGE + ',"b":' + _SURROGATE + "}",
    '{"a":' + "7" * 400 + ',"b":' + _SURROGATE + ',"c":-' + "3" * 25 + "}",
    '{"a":' + "123456789" * 30 + ',"b":' + _SURROGATE + ',"c":[12,-0.5]}',
]


def test_integers_python_cannot_read_are_read_as_javascript_reads_them() -> None:
    """An integer of more than 4,300 digits is the double JSON.parse makes of it (Infinity
    past the largest), never a line lost: pitui dropped the whole message holding one
    (Python's int() refuses so many digits). Integers past 64 bits read as the fast path
    reads them, in 64 bits exact."""
    assert parse_line(_NUMBER_LINES[0].encode()) == {
        "details": {"n": math.inf},
        "keep": "the answer",
    }
    assert parse_line(_NUMBER_LINES[1].encode()) == {"input": -math.inf, "output": 1}
    assert parse_line(_NUMBER_LINES[2].encode()) == {"a": math.inf, "b": "\ud800"}
    assert parse_line(_NUMBER_LINES[3].encode()) == {
        "a": math.inf,
        "b": "\ud800",
        "c": -float("3" * 25),
    }
    # Within 64 bits exact (as orjson, the fast path, reads them), past them a double.
    fallback = parse_line(b'{"a":%d,"b":"\\ud800","c":%d}' % (2**64 - 1, -(2**63)))
    assert fallback == {"a": 2**64 - 1, "b": "\ud800", "c": -(2**63)}
    past = parse_line(b'["\\ud800",%d]' % 2**64)[1]
    assert type(past) is float and past == orjson.loads(b"[%d]" % 2**64)[0]


def test_huge_integers_as_node_reads_them(pi_oracle: object) -> None:
    from oracle import _installed_node

    node = _installed_node()
    script = "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{for(const l of d.trim().split('\\n'))console.log(JSON.stringify(JSON.parse(l)))})"
    out = subprocess.run(
        [node, "-e", script],
        input="\n".join(_NUMBER_LINES),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.rstrip("\n").split("\n") == [
        dumps(parse_line(line.encode())) for line in _NUMBER_LINES
    ]


tricky_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=st.characters(codec=None), max_size=12)
    | st.sampled_from(['1.5e-07 "NaN" \\', "\ud83d", "-Infinity", '\\"0.5\\"', "5.0"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=5) | st.sampled_from(["1.0", '"e"']), children)
    ),
    max_leaves=16,
)


@settings(max_examples=300, deadline=None)
@given(tricky_values)
def test_fast_text_equals_the_reference(value: object) -> None:
    """The C encoder plus the float and surrogate fixes write what the reference writes,
    one value at a time in Python (floats in strings and keys left alone)."""
    from pitui.core.format.jsonline import _dumps_reference

    assert dumps(value) == _dumps_reference(value)
