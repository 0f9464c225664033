"""The serverless pipeline: webhook -> SQS FIFO -> agent -> WhatsApp, and the payment callbacks."""
