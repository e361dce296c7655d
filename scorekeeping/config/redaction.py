"""Keep edit tokens out of the logs: the edit link's token is cut from every log line."""

from __future__ import annotations

import logging
import re

_JOIN = re.compile(r"(/join/)[^/\s\"']+")


def redact(text: str) -> str:
    return _JOIN.sub(r"\1[token]", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(str(record.msg))
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        return True
