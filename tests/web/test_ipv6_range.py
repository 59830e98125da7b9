"""One IPv6 /64 is one client: a live server in a private network namespace, publishers from
many addresses of one /64 and one from another /64 (issue 50, item 4: an honest publisher's
card waited behind each address of the /64).

The server and its clients run in ``python -c`` in a namespace of their own (tests/web/
addresses.py): the machine's network needs no IPv6, and nothing outside the namespace sees it.
"""

from __future__ import annotations

import json
import os

import pytest
from addresses import in_namespace, namespace_refusal

SCRIPT = """
import json, os, sys, tempfile
sys.path[:0] = sys.argv[1:3]
from addresses import NET6, OTHER6, SERVER6, http_from, ipv6
from conftest import LiveServer
from sheepfold.server.limits import Rate

srv = LiveServer(
    os.path.join(tempfile.mkdtemp(), "v6.db"), host=SERVER6, lab_workers=0,
    publish_rate=Rate(0, 0), gallery_per_day=0, lab_queue_per_client=0,
)
try:
    seen = []
    def publish(address, name, wool):
        with http_from(srv.url, address) as http:
            r = http.post("/api/gallery/shave-a-sheep",
                          json={"name": name, "author": "ewe", "rules": {"wool": wool}})
            assert r.status_code == 201, r.text
    for i in range(6):  # six addresses of one /64, two cards each
        for n in range(2):
            publish(ipv6(i), f"Crowd {i} {n}", 6 + n)
    publish(ipv6(0, OTHER6), "Honest", 9)
    store = srv.app.state.gallery.store
    lab = srv.http.get("/api/gallery/shave-a-sheep/honest").json()["lab"]
    print(json.dumps({"honest": lab, "clients": sorted({j.client for j in store.queue()})}))
finally:
    srv.stop()
"""


def test_many_addresses_of_one_64_take_one_turn_in_the_lab_queue() -> None:
    refusal = namespace_refusal()
    if refusal:
        pytest.skip(refusal)
    here = os.path.dirname(__file__)
    done = in_namespace(SCRIPT, here, os.path.dirname(here))
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # the server saw IPv6 clients (their addresses, or their /64s once keyed so)
    assert all(c.startswith(("fd00:1:", "fd00:2:")) for c in out["clients"]), out
    # twelve cards of one /64 wait; the other /64's card is next: the crowd is one range
    assert out["honest"]["position_in_queue"] == 1, out
