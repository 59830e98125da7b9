"""The relay's trust (server/cluster.py): only a request signed with the cluster's secret says
who its client is; a stranger's relay headers are dropped and change nothing. No database."""

from __future__ import annotations

from sheepfold.server.cluster import CLIENT, RELAY, key_of, key_parts, table_key, trusted

SECRET = "s3cret-of-the-cluster"


def scope(*headers: tuple[bytes, bytes]) -> dict:
    return {"type": "http", "client": ("10.0.0.7", 5555), "headers": [(b"host", b"x"), *headers]}


def test_a_request_relayed_by_the_cluster_names_its_client():
    got, relayed = trusted(scope((RELAY, SECRET.encode()), (CLIENT, b"127.0.0.9")), SECRET)
    assert relayed and got["client"] == ("127.0.0.9", 0)
    assert got["headers"] == [(b"host", b"x")]  # the app never sees the cluster's headers


def test_a_strangers_relay_headers_are_dropped_and_change_nothing():
    for forged in (
        scope((CLIENT, b"127.0.0.9")),
        scope((RELAY, b"guess"), (CLIENT, b"127.0.0.9")),
        scope((RELAY, SECRET.encode()[:-1]), (CLIENT, b"127.0.0.9")),
    ):
        got, relayed = trusted(forged, SECRET)
        assert not relayed
        assert got["client"] == ("10.0.0.7", 5555)
        assert got["headers"] == [(b"host", b"x")]
    plain = scope()
    assert trusted(plain, SECRET) == (plain, False)


def test_a_tables_lock_key_reads_back_from_pg_locks_parts():
    for table_id in ("abc", "9CddE6Kv", "x" * 32):
        key = table_key(table_id)
        assert -(2**63) <= key < 2**63
        hi, lo = key_parts(key)
        assert 0 <= hi < 2**32 and 0 <= lo < 2**32
        assert key_of(hi, lo) == key
    assert table_key("abc") != table_key("abd")
