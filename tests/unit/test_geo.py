"""Delivery zones on the map: a pin inside a circle or polygon is in the zone, outside is not; overlapping zones give
the tighter one; a zone drawn wrong is refused with what to fix."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from tulia.domain.geo import GeoPoint, distance_km, in_polygon
from tulia.domain.tenant import DeliveryZone, zone_at

CBD = GeoPoint(lat=-1.2864, lon=36.8172)  # Kenyatta Avenue
WESTLANDS = GeoPoint(lat=-1.2676, lon=36.8108)  # Sarit Centre
KAREN = GeoPoint(lat=-1.3194, lon=36.7073)
ETA = {"en": "same day"}


def test_distances_are_great_circle_kilometres() -> None:
    assert distance_km(CBD, WESTLANDS) == pytest.approx(2.2, abs=0.1)
    assert distance_km(CBD, KAREN) == pytest.approx(12.8, abs=0.2)
    assert distance_km(CBD, CBD) == 0.0
    mombasa = GeoPoint(lat=-4.0435, lon=39.6682)
    assert distance_km(CBD, mombasa) == pytest.approx(441, abs=3)


def test_a_pin_in_a_circle_or_a_polygon_finds_its_zone_and_the_tighter_one_wins() -> None:
    town = DeliveryZone(name="Nairobi", fee=400, eta=ETA, centre=CBD, radius_km=15)
    centre = DeliveryZone(name="CBD", fee=150, eta=ETA, centre=CBD, radius_km=1.5)
    westlands = DeliveryZone(
        name="Westlands",
        fee=250,
        eta=ETA,
        polygon=[
            GeoPoint(lat=-1.255, lon=36.795), GeoPoint(lat=-1.255, lon=36.825),
            GeoPoint(lat=-1.280, lon=36.825), GeoPoint(lat=-1.280, lon=36.795),
        ],
    )  # fmt: skip
    words_only = DeliveryZone(name="Upcountry", fee=900, eta=ETA, areas=["Nakuru"])
    zones = [words_only, town, westlands, centre]
    assert zone_at(zones, CBD) is centre
    assert zone_at(zones, WESTLANDS) is westlands
    assert zone_at(zones, KAREN) is town
    assert zone_at(zones, GeoPoint(lat=-0.3031, lon=36.0800)) is None  # Nakuru: only named, never drawn
    assert not words_only.on_the_map


@pytest.mark.parametrize(
    "fields",
    [
        {"centre": {"lat": -1.28, "lon": 36.8}},  # no radius
        {"radius_km": 5},  # no centre
        {"centre": {"lat": -1.28, "lon": 36.8}, "radius_km": 0},
        {"centre": {"lat": -91, "lon": 36.8}, "radius_km": 3},
        {"polygon": [{"lat": -1.2, "lon": 36.8}, {"lat": -1.3, "lon": 36.8}]},  # two points
        {"centre": {"lat": -1.28, "lon": 36.8}, "radius_km": 3,
         "polygon": [{"lat": -1.2, "lon": 36.8}, {"lat": -1.3, "lon": 36.8}, {"lat": -1.3, "lon": 36.9}]},
    ],
)  # fmt: skip
def test_a_zone_drawn_wrong_is_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        DeliveryZone.model_validate({"name": "Z", "fee": 100, "eta": ETA, **fields})


square = [GeoPoint(lat=0, lon=0), GeoPoint(lat=0, lon=1), GeoPoint(lat=1, lon=1), GeoPoint(lat=1, lon=0)]
inner = st.floats(min_value=0.001, max_value=0.999)
outer = st.one_of(st.floats(min_value=-5, max_value=-0.001), st.floats(min_value=1.001, max_value=5))


@given(inner, inner)
def test_every_point_inside_a_square_is_in_it(lat: float, lon: float) -> None:
    assert in_polygon(GeoPoint(lat=lat, lon=lon), square)


@given(outer, st.floats(min_value=-5, max_value=5))
def test_every_point_outside_a_square_is_not_in_it(lat: float, lon: float) -> None:
    assert not in_polygon(GeoPoint(lat=lat, lon=lon), square)
    assert not in_polygon(GeoPoint(lat=lon, lon=lat), square)


def test_the_demo_shops_map_puts_nairobi_pins_in_their_zones() -> None:
    from tests.conftest import PACKS
    from tulia.packs.loader import load_pack

    zones = load_pack(PACKS / "demo-shop").tenant.delivery_zones
    at = {
        "Hilton, CBD": (-1.2860, 36.8230),
        "Sarit Centre": (-1.2610, 36.8020),
        "Yaya Centre": (-1.2925, 36.7880),
        "Buruburu": (-1.2850, 36.8790),
        "Kasarani stadium": (-1.2218, 36.8973),
        "Mombasa": (-4.0435, 39.6682),
        "Kampala": (0.3476, 32.5825),
    }
    found = {name: (z.name if (z := zone_at(zones, GeoPoint(lat=a, lon=b))) else None) for name, (a, b) in at.items()}
    assert found == {
        "Hilton, CBD": "Nairobi CBD",
        "Sarit Centre": "Nairobi West",
        "Yaya Centre": "Nairobi West",
        "Buruburu": "Eastlands",
        "Kasarani stadium": "Thika Road",
        "Mombasa": "Rest of Kenya",
        "Kampala": None,
    }
