"""A small WSGI app (stdlib only) served by gunicorn in scripts/logdata/gunicorn.sh."""

import json
import time

VESSELS = {str(i): {"id": i, "name": f"vessel-{i}"} for i in range(1, 40)}


def app(environ, start_response):
    path = environ.get("PATH_INFO", "/")
    if path == "/health":
        body, status = b"ok", "200 OK"
    elif path.startswith("/api/vessels/"):
        key = path.rsplit("/", 1)[1]
        if key == "boom":
            raise ValueError(f"cannot parse vessel id {key!r}")
        if key == "slow":
            time.sleep(5)  # longer than --timeout: the worker is killed
        v = VESSELS.get(key)
        if v is None:
            body, status = json.dumps({"error": "not found"}).encode(), "404 Not Found"
        else:
            body, status = json.dumps(v).encode(), "200 OK"
    elif path == "/api/vessels":
        body, status = json.dumps(list(VESSELS.values())).encode(), "200 OK"
    else:
        body, status = b"no route", "404 Not Found"
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
