"""calculators/deployment_inputs.py ``parse_top``, ``quantity`` and the size limit: ``kubectl top pods --containers``
text read line by line, each bad line named with its whole message, several outputs pasted one after another, and text
too large refused. Every expected value is read off the text in the test by hand."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import deployment_inputs as di


def test_several_outputs_pasted_one_after_another():
    text = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n"
            "a web-7d9c5b6f4-q8r7t app 250m 512Mi\n"
            "\n"
            "POD NAME CPU(cores) MEMORY(bytes)\n"
            "db-0 app 2 1Gi\n")
    got = di.parse_top(text)
    assert got["problems"] == []
    # the second block has no NAMESPACE column: its row has none; 250m = 1/4, 512Mi = 1/2 GiB
    assert got["rows"] == [
        {"line": 2, "namespace": "a", "pod": "web-7d9c5b6f4-q8r7t", "container": "app", "cpu": Fraction(1, 4),
         "memory": Fraction(1, 2)},
        {"line": 5, "namespace": None, "pod": "db-0", "container": "app", "cpu": Fraction(2), "memory": Fraction(1)}]


def test_each_bad_line_is_named_with_its_message():
    text = ("POD CONTAINER CPU(cores) MEMORY(bytes)\n"       # 1: a header of other columns
            "p c 1m 1Mi\n"                                   # 2: under no recognised header
            "POD NAME CPU(cores) MEMORY(bytes)\n"            # 3
            "p c -1m 1Mi\n"                                  # 4: negative CPU
            "p c 1m -1Mi\n"                                  # 5: negative memory
            "p c 1m 12x\n"                                   # 6: memory no quantity
            "p c 1m\n"                                       # 7: a column missing
            "p c 3m 3Mi\n")                                  # 8: read
    got = di.parse_top(text)
    assert got["problems"] == [
        {"where": "line 1", "message": "header not recognised (expected NAMESPACE POD NAME CPU(cores) MEMORY(bytes), or "
                                       "without NAMESPACE)"},
        {"where": "line 2", "message": "before any header line (POD NAME CPU(cores) MEMORY(bytes)): not read"},
        {"where": "line 4", "message": "a negative reading"},
        {"where": "line 5", "message": "a negative reading"},
        {"where": "line 6", "message": "MEMORY(bytes): '12x' is not a Kubernetes quantity (a number with an optional "
                                       "suffix: 250m, 1.5, 512Mi, 1Gi, 1G, 1e9)"},
        {"where": "line 7", "message": "3 columns, expected 4 (POD NAME CPU(cores) MEMORY(bytes))"}]
    # 3m = 3/1000 cores; 3Mi = 3/1024 GiB
    assert [(r["line"], r["cpu"], r["memory"]) for r in got["rows"]] == [(8, Fraction(3, 1000), Fraction(3, 1024))]


def test_an_unrecognised_header_ends_the_block_before_it():
    text = ("POD NAME CPU(cores) MEMORY(bytes)\n"
            "p c 1m 1Mi\n"
            "POD CONTAINER CPU(cores) MEMORY(bytes)\n"
            "q c 2m 2Mi\n")
    got = di.parse_top(text)
    # line 4 sits under the unrecognised header of line 3, not under line 1's: not read
    assert [r["line"] for r in got["rows"]] == [2]
    assert [p["where"] for p in got["problems"]] == ["line 3", "line 4"]
    assert got["problems"][1]["message"] == "before any header line (POD NAME CPU(cores) MEMORY(bytes)): not read"


def test_a_reading_of_zero_is_read():
    got = di.parse_top("POD NAME CPU(cores) MEMORY(bytes)\np c 0m 0Mi\n")
    assert got["problems"] == [] and (got["rows"][0]["cpu"], got["rows"][0]["memory"]) == (0, 0)


def test_text_larger_than_8_mib_is_refused():
    # MAX_BYTES = 8 x 1,048,576 characters: one more is refused, naming the limit in MiB
    big = "x" * (8 * 1048576 + 1)
    with pytest.raises(di.DeploymentInputError) as e:
        di.parse_top(big)
    assert str(e.value) == "kubectl top: the text is larger than 8 MiB."
    with pytest.raises(di.DeploymentInputError) as e:
        di.load_json(big)
    assert str(e.value) == "Workloads: the text is larger than 8 MiB."
    # exactly 8 MiB is read: JSON text of that length, and a header padded with blanks to that length
    assert di.load_json('"' + "x" * (8 * 1048576 - 2) + '"') == "x" * (8 * 1048576 - 2)
    header = "POD NAME CPU(cores) MEMORY(bytes)\n"
    assert di.parse_top(header + " " * (8 * 1048576 - len(header))) == {"rows": [], "problems": []}


def test_a_bad_quantity_is_named_cut_to_40_characters():
    with pytest.raises(ValueError) as e:
        di.quantity("  " + "9" * 50 + "x ")
    # stripped, then its first 40 characters shown
    assert str(e.value) == (f"'{'9' * 40}' is not a Kubernetes quantity (a number with an optional suffix: 250m, 1.5, "
                            "512Mi, 1Gi, 1G, 1e9)")
    # a float is read by its shortest decimal text: 1e-05 is 1/100000, not the binary float's expansion
    assert di.quantity(1e-05) == Fraction(1, 100000) and di.cpu_cores(0.1) == Fraction(1, 10)
