"""Points on the map: a customer's location pin, and the area a delivery zone covers (a centre and a radius, or a
polygon drawn around it). Distances are great-circle distances on a sphere of the Earth's mean radius (within a
few metres of the ellipsoid at Nairobi's scale); a polygon's edges are straight in latitude and longitude, which
is how a shop draws one on a map of a city."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from tulia.domain.common import Model

EARTH_RADIUS_KM = 6371.0088


class GeoPoint(Model):
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


def distance_km(a: GeoPoint, b: GeoPoint) -> float:
    """The great-circle (haversine) distance between two points."""
    phi1, phi2 = math.radians(a.lat), math.radians(b.lat)
    dphi, dlmb = phi2 - phi1, math.radians(b.lon - a.lon)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def in_polygon(point: GeoPoint, polygon: Sequence[GeoPoint]) -> bool:
    """Whether the point is inside the polygon (ray casting; a point on an edge counts as inside)."""
    inside = False
    n = len(polygon)
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        if _on_segment(point, a, b):
            return True
        if (a.lat > point.lat) != (b.lat > point.lat):
            crossing = a.lon + (point.lat - a.lat) * (b.lon - a.lon) / (b.lat - a.lat)
            if point.lon < crossing:
                inside = not inside
    return inside


def _on_segment(p: GeoPoint, a: GeoPoint, b: GeoPoint, tolerance: float = 1e-9) -> bool:
    cross = (b.lon - a.lon) * (p.lat - a.lat) - (b.lat - a.lat) * (p.lon - a.lon)
    if abs(cross) > tolerance:
        return False
    return min(a.lon, b.lon) - tolerance <= p.lon <= max(a.lon, b.lon) + tolerance and (
        min(a.lat, b.lat) - tolerance <= p.lat <= max(a.lat, b.lat) + tolerance
    )


def polygon_area_km2(polygon: Sequence[GeoPoint]) -> float:
    """A polygon's area (shoelace on an equirectangular projection at its mean latitude: exact enough to tell a
    neighbourhood from a city)."""
    mean_lat = math.radians(sum(p.lat for p in polygon) / len(polygon))
    km_lat, km_lon = 110.574, 111.320 * math.cos(mean_lat)
    xs = [p.lon * km_lon for p in polygon]
    ys = [p.lat * km_lat for p in polygon]
    twice = sum(xs[i] * ys[(i + 1) % len(xs)] - xs[(i + 1) % len(xs)] * ys[i] for i in range(len(xs)))
    return abs(twice) / 2


def pin_of(inbound: Mapping[str, Any]) -> tuple[GeoPoint, str] | None:
    """A customer's location pin in a turn's inbound message (``{"type": "location", "location": {lat, lon, name?,
    address?}}``): the point and the words that name it ("" when the pin has none)."""
    pin = inbound.get("location") if inbound.get("type") == "location" else None
    if not isinstance(pin, Mapping):
        return None
    try:
        point = GeoPoint(lat=float(pin["lat"]), lon=float(pin["lon"]))
    except (KeyError, TypeError, ValueError):
        return None
    return point, ", ".join(str(pin[k]) for k in ("name", "address") if pin.get(k))


def pin_place(point: GeoPoint, words: str) -> str:
    """A pin as a delivery or visit address: its words, and the coordinates a rider opens on a map."""
    at = f"({point.lat:.5f}, {point.lon:.5f})"
    return (f"{words} {at}" if words else at)[:300]
