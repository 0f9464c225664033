"""The text in a customer's picture (issue 35, part 3): Amazon Textract in AWS, Tesseract (Debian's package) on a
laptop. Both give plain text, line by line; what it means is ``tulia.domain.mpesa_receipt``'s business. A reader
that cannot read (Tesseract missing, Textract refusing the file) says so with :class:`PictureUnread`: the
customer is then asked to type the code, never told a guess.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from typing import Any, Protocol


class PictureUnread(Exception):
    """The picture's text could not be read (the reader is missing, failed, or refused the file)."""


class PictureReader(Protocol):
    name: str

    def read(self, data: bytes) -> str: ...


@dataclass
class TesseractReader:
    """Tesseract 5 from the machine's packages (``apt install tesseract-ocr``), fed the file on stdin."""

    binary: str = "tesseract"
    timeout_seconds: float = 30.0
    name: str = "tesseract"

    def available(self) -> bool:
        return shutil.which(self.binary) is not None

    def read(self, data: bytes) -> str:
        if not self.available():
            raise PictureUnread("tesseract is not installed (Debian's package tesseract-ocr)")
        try:
            done = subprocess.run(
                [self.binary, "stdin", "stdout", "-l", "eng", "--psm", "4"],
                input=data,
                capture_output=True,
                timeout=self.timeout_seconds,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise PictureUnread("tesseract took too long") from exc
        if done.returncode != 0:
            raise PictureUnread(f"tesseract failed ({done.returncode})")
        return done.stdout.decode("utf-8", "replace")


@dataclass
class TextractReader:
    """Amazon Textract's DetectDocumentText (synchronous, JPEG or PNG up to 5 MB: WhatsApp's photo limit)."""

    client: Any  # boto3's textract client
    name: str = "textract"

    def read(self, data: bytes) -> str:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            answer = self.client.detect_document_text(Document={"Bytes": data})
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code"))
            if code in ("UnsupportedDocumentException", "BadDocumentException", "InvalidParameterException"):
                raise PictureUnread(f"textract: {code}") from exc
            raise  # throttling, an outage: the turn is retried
        except BotoCoreError:
            raise
        lines = [b.get("Text", "") for b in answer.get("Blocks", []) if b.get("BlockType") == "LINE"]
        return "\n".join(lines)
