"""Tulia: a tenant-scoped WhatsApp sales and support agent."""

__version__ = "0.1.0"
