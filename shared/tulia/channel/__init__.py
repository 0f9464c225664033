"""The WhatsApp channel: signed webhooks in, Graph API messages out, the 24-hour window and templates."""
