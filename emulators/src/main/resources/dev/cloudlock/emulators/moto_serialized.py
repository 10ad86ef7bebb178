"""moto server with one request at a time.

moto's threaded server does not lock around a DynamoDB conditional update (it reads the item, checks the
condition and writes it back), so two racing requests can both pass a condition. Real DynamoDB and S3 apply a
conditional write atomically per item; serialising requests restores that. (werkzeug closes the connection after
every response, whatever the handler's protocol version: there is no keep-alive to keep.)

Usage: python3 moto_serialized.py HOST PORT
"""
import logging
import os
import sys
import threading

try:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import run_simple
except ImportError as error:
    sys.stderr.write(
        "cloudlock: moto server is not installed for %s (%s).\n"
        "Install it with: %s -m pip install 'moto[server]'\n" % (sys.executable, error, sys.executable))
    sys.exit(3)

host, port = sys.argv[1], int(sys.argv[2])
os.environ.setdefault("MOTO_PORT", str(port))
logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no log line per request
backend = DomainDispatcherApplication(create_backend_app)
one_at_a_time = threading.Lock()


def serialized(environ, start_response):
    with one_at_a_time:
        response = backend(environ, start_response)
        try:
            body = b"".join(response)
        finally:
            close = getattr(response, "close", None)
            if close is not None:
                close()
    return [body]


run_simple(host, port, serialized, threaded=True)
