"""
Child process of sentry-python.test.ts: Debian's python3-sentry-sdk, unmodified, with its
default logging integration; the application logs a caught exception with a message of its own
(`logging.exception`), which the SDK sends as one event holding both the exception and the
`logentry`. Prints the event id as one JSON line.

    SENTRY_DSN   the DSN the SDK uses
"""
import json
import logging
import os
import sys

import sentry_sdk

sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release="shop-py@1.0.0", environment="sdk-test")
log = logging.getLogger("shop.payments")


def charge_card(order):
    raise KeyError("card-%s" % order)


try:
    charge_card("A-1001")
except KeyError:
    log.exception("charging order %s failed after %d attempts", "A-1001", 3)

event_id = sentry_sdk.last_event_id()
sentry_sdk.flush(10)
sys.stdout.write(json.dumps({"logging": event_id, "version": sentry_sdk.VERSION}) + "\n")
