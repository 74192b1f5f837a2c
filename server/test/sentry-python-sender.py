"""
Child process of sentry-python.test.ts: Debian's python3-sentry-sdk, unmodified, sends one
chained exception (`raise ... from ...`) with a breadcrumb; its defaults add the source lines
around each frame and the frames' local variables. Prints the event id as one JSON line.

    SENTRY_DSN   the DSN the SDK uses
"""
import json
import os
import sys

import sentry_sdk

sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release="shop-py@1.0.0", environment="sdk-test")
sentry_sdk.add_breadcrumb(category="auth", message="signed in", level="info", data={"user": "ada", "password": "hunter2"})


def parse_amount(raw):
    cents = len(raw) * 100
    return int(raw) * cents


def charge_card(raw):
    api_token = "tok-123"
    attempts = [1, 2]
    try:
        return parse_amount(raw)
    except ValueError as err:
        raise RuntimeError("payment failed for %s" % raw) from err


try:
    charge_card("12x")
except RuntimeError:
    event_id = sentry_sdk.capture_exception()

sentry_sdk.flush(10)
sys.stdout.write(json.dumps({"exception": event_id, "version": sentry_sdk.VERSION}) + "\n")
