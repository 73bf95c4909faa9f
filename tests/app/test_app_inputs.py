"""Shared page input parsing (app/components/inputs.py): number lists and HDD profile names."""

import pytest

from app.components.inputs import GENERIC_HDD, check_hdd_profile, hdd_profiles, number_list
from models.storage import hdd


def test_number_list_parses_commas_and_semicolons():
    assert number_list("4, 64; 1024", "sizes_kib", what="sizes", example="4", low=0, high=65536) == [4.0, 64.0, 1024.0]


@pytest.mark.parametrize("text, kw", [
    ("4, abc", {}),                        # not a number
    ("", {}),                              # nothing
    ("0", {"low_open": True}),             # open lower bound excludes 0
    ("2e6", {}),                           # above high
    ("nan", {}),
    ("1, 2, 3", {"max_count": 2}),
])
def test_number_list_errors_name_the_field(text, kw):
    with pytest.raises(ValueError, match="^sizes_mb: "):
        number_list(text, "sizes_mb", what="cache sizes in MB", example="16, 64", low=0, high=1e6, **kw)


def test_number_list_closed_lower_bound_accepts_low():
    assert number_list("0.01", "f", what="x", example="1", low=0.01, high=1) == [0.01]


def test_hdd_profiles_generic_first_then_disksim_drives():
    assert hdd_profiles() == [GENERIC_HDD, *hdd.drive_names()]
    assert check_hdd_profile("barracuda") == "barracuda"
    with pytest.raises(ValueError, match="unknown drive 'floppy'.*hdd-7200"):
        check_hdd_profile("floppy")


def test_field_types_validate_inside_a_scenario():
    from pydantic import ValidationError

    from app.components.inputs import HddProfile, number_text
    from app.components.scenario import Scenario

    Sizes, parse = number_text("sizes", what="sizes", example="1, 2", low=1, high=10, max_count=3)

    class S(Scenario):
        drive: HddProfile = GENERIC_HDD
        sizes: Sizes = "1, 2"

    assert parse(S().sizes) == [1.0, 2.0]
    assert S.model_fields["sizes"].annotation is str  # URL params are decoded as plain text
    with pytest.raises(ValidationError, match="sizes: give 1-3 sizes"):
        S(sizes="1, 2, 3, 4")
    with pytest.raises(ValidationError, match="unknown drive"):
        S(drive="floppy")
