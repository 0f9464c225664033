"""Wording: WhatsApp message objects, templates per language, and the fact guard for model text."""
