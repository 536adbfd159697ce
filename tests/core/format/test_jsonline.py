"""JSON.stringify-exact serialisation (checked against Node) and JSON.parse-like reading."""

from __future__ import annotations

import json
import subprocess

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
